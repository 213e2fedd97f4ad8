export {
  EmbeddedStore,
  EmbeddedStoreError,
  type EmbeddedStoreOptions,
  type Migration,
} from './embedded-store';
