import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A stand-in `aws` command for the deploy tests: `s3 cp <folder> s3://mirror-bucket/ --recursive`
 * copies into a local "bucket" folder, `s3 rm s3://mirror-bucket/<key>` deletes from it, CloudFront's
 * calls answer ETags, and every call is logged. Put `bin` first on the PATH of the command under test.
 */
export interface FakeAws {
  bin: string;
  bucket: string;
  /** The calls since the last `reset()`, one line each (the arguments). */
  calls(): string[];
  reset(): void;
}

export const FAKE_BUCKET = 'mirror-bucket';

export function installFakeAws(folder: string): FakeAws {
  const bin = path.join(folder, 'bin');
  const bucket = path.join(folder, 'bucket');
  const log = path.join(folder, 'aws-calls.log');
  mkdirSync(bin, { recursive: true });
  mkdirSync(bucket, { recursive: true });
  writeFileSync(log, '');
  writeFileSync(
    path.join(bin, 'aws'),
    `#!/usr/bin/env bash
echo "$*" >> ${JSON.stringify(log)}
case "$1 $2" in
  "s3 cp") cp -r "$3/." ${JSON.stringify(bucket)}/ ;;
  "s3 rm") rm ${JSON.stringify(bucket)}/"\${3#s3://${FAKE_BUCKET}/}" ;;
  "cloudfront describe-function") echo ETAG-1 ;;
  "cloudfront update-function") echo ETAG-2 ;;
esac
`,
  );
  chmodSync(path.join(bin, 'aws'), 0o755);
  return {
    bin,
    bucket,
    calls: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
    reset: () => writeFileSync(log, ''),
  };
}
