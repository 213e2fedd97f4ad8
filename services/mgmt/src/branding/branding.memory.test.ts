import { brandingContract } from './branding.contract';
import { memoryBranding } from './memory';

brandingContract('memory', async () => memoryBranding());
