import { eventBusContract } from './contract';
import { MemoryEventBus } from './memory';

eventBusContract('memory', async () => new MemoryEventBus());
