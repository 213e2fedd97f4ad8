import { closedObject, json, ref } from './common';

/** An array of the named schema. */
export const arrayOf = (name: string) => ({ type: 'array', items: ref(name) });

/** The 200 answer of a list operation: `{ <member>: [<schema>, ...] }` and no other member. */
export const listed = (description: string, member: string, schema: string) => ({
  '200': json(description, closedObject([member], { [member]: arrayOf(schema) })),
});
