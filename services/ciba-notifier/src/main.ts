import { runMain } from '@sesame/platform';
import { loadCibaNotifierConfig } from './config';
import { createCibaNotifierService } from './service';

await runMain(
  'ciba-notifier',
  () => loadCibaNotifierConfig(),
  (config) => createCibaNotifierService(config),
);
