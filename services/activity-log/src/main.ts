import { runMain } from '@sesame/platform';
import { loadActivityLogConfig } from './config';
import { createActivityLogService } from './service';

await runMain(
  'activity-log',
  () => loadActivityLogConfig(),
  (config) => createActivityLogService(config),
);
