import protobuf from 'protobufjs';

/**
 * ONNX model serialisation with protobufjs (maintained, one dependency; the `onnx-proto` package
 * was considered but is generated from ONNX 1.10 and pins protobufjs 6, a major behind).
 *
 * The schema below is the subset of ONNX's own `onnx/onnx.proto` (MIT, ONNX Project Contributors)
 * that a converted inference graph needs: message and field names and numbers are copied from it
 * unchanged; fields this converter never writes are left out (protobuf ignores absent fields, so
 * the encoded model is a valid `ModelProto`).
 */
const ONNX_SUBSET = `
syntax = "proto2";
package onnx;

message AttributeProto {
  enum AttributeType { UNDEFINED = 0; FLOAT = 1; INT = 2; STRING = 3; FLOATS = 6; INTS = 7; }
  optional string name = 1;
  optional AttributeType type = 20;
  optional float f = 2;
  optional int64 i = 3;
  optional bytes s = 4;
  repeated float floats = 7;
  repeated int64 ints = 8;
}
message ValueInfoProto {
  optional string name = 1;
  optional TypeProto type = 2;
}
message NodeProto {
  repeated string input = 1;
  repeated string output = 2;
  optional string name = 3;
  optional string op_type = 4;
  repeated AttributeProto attribute = 5;
}
message ModelProto {
  optional int64 ir_version = 1;
  repeated OperatorSetIdProto opset_import = 8;
  optional string producer_name = 2;
  optional string producer_version = 3;
  optional GraphProto graph = 7;
}
message GraphProto {
  repeated NodeProto node = 1;
  optional string name = 2;
  repeated TensorProto initializer = 5;
  repeated ValueInfoProto input = 11;
  repeated ValueInfoProto output = 12;
}
message TensorProto {
  repeated int64 dims = 1;
  optional int32 data_type = 2;
  optional string name = 8;
  optional bytes raw_data = 9;
}
message TensorShapeProto {
  message Dimension {
    oneof value {
      int64 dim_value = 1;
      string dim_param = 2;
    };
  };
  repeated Dimension dim = 1;
}
message TypeProto {
  message Tensor {
    optional int32 elem_type = 1;
    optional TensorShapeProto shape = 2;
  }
  oneof value {
    Tensor tensor_type = 1;
  }
}
message OperatorSetIdProto {
  optional string domain = 1;
  optional int64 version = 2;
}
`;

/** TensorProto.DataType values used here. */
export const DataType = { FLOAT: 1, INT64: 7 } as const;
/** AttributeProto.AttributeType values used here. */
export const AttributeType = { FLOAT: 1, INT: 2, STRING: 3, FLOATS: 6, INTS: 7 } as const;

export type AttributeProto = {
  name: string;
  type: (typeof AttributeType)[keyof typeof AttributeType];
  f?: number;
  i?: number;
  s?: Uint8Array;
  floats?: number[];
  ints?: number[];
};
export type NodeProto = {
  input: string[];
  output: string[];
  name: string;
  op_type: string;
  attribute: AttributeProto[];
};
export type TensorProto = {
  name: string;
  dims: number[];
  data_type: (typeof DataType)[keyof typeof DataType];
  /** Little-endian element bytes (every platform Node runs on here is little-endian). */
  raw_data: Uint8Array;
};
/** A tensor value's type: element type and shape (a dimension is a size or a symbolic name). */
export type ValueInfoProto = {
  name: string;
  type: {
    tensor_type: {
      elem_type: number;
      shape?: { dim: Array<{ dim_value: number } | { dim_param: string }> };
    };
  };
};
type GraphProto = {
  name: string;
  node: NodeProto[];
  initializer: TensorProto[];
  input: ValueInfoProto[];
  output: ValueInfoProto[];
};
type ModelProto = {
  ir_version: number;
  opset_import: Array<{ domain: string; version: number }>;
  producer_name: string;
  producer_version: string;
  graph: GraphProto;
};

let parsed: protobuf.Type | null = null;
// keepCase: the field names stay ONNX's snake_case (op_type, raw_data), as typed above.
const modelType = () =>
  (parsed ??= protobuf.parse(ONNX_SUBSET, { keepCase: true }).root.lookupType('onnx.ModelProto'));

/** The serialised model, as onnxruntime's InferenceSession loads it from memory. */
export function encodeModel(model: ModelProto): Uint8Array {
  return modelType().encode(model).finish();
}

/** Decodes bytes made by encodeModel (for tests and diagnostics). */
export function decodeModel(bytes: Uint8Array): ModelProto {
  const t = modelType();
  return t.toObject(t.decode(bytes), { longs: Number, defaults: false }) as ModelProto;
}
