export {
  EmbeddedStore,
  EmbeddedStoreError,
  type EmbeddedStoreOptions,
  type Migration,
  type TurnWriter,
} from './embedded-store';
