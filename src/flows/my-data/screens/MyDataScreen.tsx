import { selectMyData } from '../../../../machines/my-data/my-data.selectors';
import { Muted } from '../../../components/Page';
import { myData as copy } from '../../../copy/es.myData';
import { MyDataActor } from '../my-data.context';
import { MyDataFrame } from './MyDataFrame';
import { Field, Fields, Note, Section, SectionTitle } from './my-data.styles';

/** Item 1: what the service holds, as read and as corrected, and the evidence still kept. */
export function MyDataScreen() {
  const data = MyDataActor.useSelector(selectMyData);
  if (!data) return null;
  const { acceptedAt, version, privacyVersion } = data.terms;
  const versions = [
    version && copy.termsVersion(version),
    privacyVersion && copy.privacyVersion(privacyVersion),
  ].filter(Boolean);
  const terms = acceptedAt
    ? [copy.day(acceptedAt), ...(versions.length ? versions : [copy.termsVersionUnknown])].join(
        ', ',
      )
    : copy.termsUnknown;
  return (
    <MyDataFrame>
      <Muted>{copy.intro}</Muted>
      <Section aria-labelledby="my-data-identity">
        <SectionTitle id="my-data-identity">{copy.identityTitle}</SectionTitle>
        <Fields>
          {data.identity.map(({ field, value, source }) => (
            <Field key={field}>
              <dt>{copy.fields[field]}</dt>
              <dd>
                {value ?? copy.empty}
                <Note>{copy.sources[source]}</Note>
              </dd>
            </Field>
          ))}
        </Fields>
      </Section>
      <Section aria-labelledby="my-data-account">
        <SectionTitle id="my-data-account">{copy.accountTitle}</SectionTitle>
        <Fields>
          <Field>
            <dt>{copy.celular}</dt>
            <dd>{data.celular ?? copy.empty}</dd>
          </Field>
          <Field>
            <dt>{copy.email}</dt>
            <dd>{data.email ?? copy.empty}</dd>
          </Field>
          <Field>
            <dt>{copy.registeredAt}</dt>
            <dd>{copy.day(data.registeredAt)}</dd>
          </Field>
          <Field>
            <dt>{copy.terms}</dt>
            <dd>{terms}</dd>
          </Field>
        </Fields>
      </Section>
      <Section aria-labelledby="my-data-face">
        <SectionTitle id="my-data-face">{copy.faceTitle}</SectionTitle>
        <p>{data.face.enrolled ? copy.faceEnrolled(data.face.since) : copy.faceNone}</p>
      </Section>
      <Section aria-labelledby="my-data-evidence">
        <SectionTitle id="my-data-evidence">{copy.evidenceTitle}</SectionTitle>
        {data.evidence.length === 0 ? (
          <p>{copy.evidenceNone}</p>
        ) : (
          data.evidence.map((kept, i) => (
            <p key={i}>
              {copy.evidence(kept.parts.map((p) => copy.parts[p]).join(copy.and), kept.until)}
            </p>
          ))
        )}
      </Section>
    </MyDataFrame>
  );
}
