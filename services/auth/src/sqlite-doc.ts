/** A record without its undefined fields (what the memory and Mongo adapters keep of it). */
export const defined = <T extends object>(record: T): Partial<T> =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as Partial<T>;

/** The record as the JSON document an embedded-store row keeps of it. */
export const toDoc = (record: object): string => JSON.stringify(defined(record));
