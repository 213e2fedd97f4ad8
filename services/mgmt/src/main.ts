import { runMain } from '@sesame/platform';
import { loadMgmtConfig } from './config';
import { createMgmtService } from './service';

await runMain(
  'mgmt',
  () => loadMgmtConfig(),
  (config) => createMgmtService(config),
);
