import { z } from 'zod';
import { int, num, parseEnv } from '../env';

/** The patient's download's settings (issue 45 item 2). */
export type DownloadSettings = {
  /**
   * how long a built file's link works; a request again within it returns the same file while
   * the data it was built from is unchanged
   */
  linkMs: number;
  /** the longest a build may take: a claim older than this (a process that died) is given up */
  buildMs: number;
};

const schema = z.object({
  // fractions allowed (a test's short link); at least 3 s
  MY_DATA_DOWNLOAD_MINUTES: num(15, 0.05),
  MY_DATA_DOWNLOAD_BUILD_SECONDS: int(60),
});

export function loadDownloadSettings(env: Record<string, string | undefined>): DownloadSettings {
  const c = parseEnv(schema, env);
  return {
    linkMs: c.MY_DATA_DOWNLOAD_MINUTES * 60_000,
    buildMs: c.MY_DATA_DOWNLOAD_BUILD_SECONDS * 1000,
  };
}
