import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The checkout's demo file: `npm start` writes the demo client and its own URL (the issuer) there. */
export const DEFAULT_DEMO_FILE = join(dirname(fileURLToPath(import.meta.url)), '../../../.sesame/demo.json');

/** What the sample app needs to be an RP of Sesame. */
export interface ExampleConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  port: number;
}

/** A configuration the app cannot start with; the message says what to do. */
export class ExampleConfigError extends Error {}

const exampleEnv = z.object({
  SESAME_EXAMPLE_ISSUER: z.string().url().optional(),
  SESAME_EXAMPLE_CLIENT_ID: z.string().min(1).optional(),
  SESAME_EXAMPLE_CLIENT_SECRET: z.string().min(1).optional(),
  SESAME_EXAMPLE_DEMO_FILE: z.string().min(1).default(DEFAULT_DEMO_FILE),
  /** The demo application's redirect URI is http://localhost:3000/callback: another port needs its own. */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
});

const demoFile = z.object({
  issuer: z.string().url().optional(),
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().min(1).optional(),
});

/** The demo file's fields, or {} when there is none; a file that is not JSON is refused by name. */
function readDemo(file: string): z.infer<typeof demoFile> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  try {
    return demoFile.parse(JSON.parse(text));
  } catch {
    throw new ExampleConfigError(`${file} is not a demo file npm start wrote: start fresh with npm start`);
  }
}

/**
 * The issuer and the demo client from the demo file `npm start` wrote, each overridden by its SESAME_EXAMPLE_*
 * variable, and PORT. Anything missing is an ExampleConfigError naming the variable and the file.
 */
export function loadExampleConfig(env: Record<string, string | undefined> = process.env): ExampleConfig {
  const parsed = exampleEnv.safeParse(env);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw new ExampleConfigError(`${issue?.path.join('.')}: ${issue?.message}`);
  }
  const vars = parsed.data;
  const demo = readDemo(vars.SESAME_EXAMPLE_DEMO_FILE);
  const pick = (name: keyof typeof vars, value: string | undefined) => {
    if (value) return value;
    throw new ExampleConfigError(
      `no ${name}, and no ${vars.SESAME_EXAMPLE_DEMO_FILE} with it: run npm start first (it writes the demo file), or set ${name}`,
    );
  };
  return {
    issuer: pick('SESAME_EXAMPLE_ISSUER', vars.SESAME_EXAMPLE_ISSUER ?? demo.issuer),
    clientId: pick('SESAME_EXAMPLE_CLIENT_ID', vars.SESAME_EXAMPLE_CLIENT_ID ?? demo.clientId),
    clientSecret: pick(
      'SESAME_EXAMPLE_CLIENT_SECRET',
      vars.SESAME_EXAMPLE_CLIENT_SECRET ?? demo.clientSecret,
    ),
    port: vars.PORT,
  };
}
