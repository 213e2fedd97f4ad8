import { disableAllocationSitePretenuring, runMain } from '@sesame/platform';
import { loadMgmtConfig } from './config';
import { createMgmtService } from './service';

// mgmt decodes support's exports (millions of short-lived records): see disableAllocationSitePretenuring.
disableAllocationSitePretenuring();

await runMain(
  'mgmt',
  () => loadMgmtConfig(),
  (config) => createMgmtService(config),
);
