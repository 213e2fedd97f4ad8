import { runMain } from '@sesame/platform';
import { loadTokenConfig } from './config';
import { createTokenService } from './service';

await runMain(
  'token',
  () => loadTokenConfig(),
  (config) => createTokenService(config),
);
