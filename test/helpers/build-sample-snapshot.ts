// Builds the full sample snapshot under the folder given (test/http/sample-app.ts): the setup step of
// `npm test` (test/helpers/run-tests.js), which hands it to the test files as SAMPLE_SNAPSHOT_DIR.
import { buildSampleSnapshot } from '../http/sample-app.ts';

const root = process.argv[2];
if (!root) {
  process.stderr.write('usage: tsx test/helpers/build-sample-snapshot.ts <folder>\n');
  process.exit(2);
}
await buildSampleSnapshot(root);
