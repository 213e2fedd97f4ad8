import { runMain } from '@sesame/platform';
import { loadJwksConfig } from './config';
import { createJwksService } from './service';

await runMain(
  'jwks',
  () => loadJwksConfig(),
  (config) => createJwksService(config),
);
