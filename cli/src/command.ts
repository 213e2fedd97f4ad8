import type { AdminCall } from './admin-client';

/** The shape of one CLI command (commands.ts lists them; interactive-commands.ts adds the local ones). */
export type Options = Record<string, string | boolean | string[] | undefined>;

/** What a command prints: `json` with --json (one object), `text` lines otherwise. */
export interface Output {
  json: Record<string, unknown>;
  text: string[];
}

/** Where the CLI runs: for the commands that keep per-directory defaults (`tenant use`). */
export interface Context {
  env: Record<string, string | undefined>;
  cwd: string;
}

export interface Command {
  usage: string;
  /** Options this command takes (besides the global ones). */
  options: string[];
  required: string[];
  /** Positional arguments after the command's name (`logs show FLOW_ID`), handed to run as `o._`. */
  args?: string[];
  /**
   * What this command breaks, for a destructive one: the CLI asks y/N on a terminal saying so, refuses
   * without one, and `--yes` skips the question (cli.ts).
   */
  danger?: string;
  /** Runs on this machine only: no admin API call, so no admin key is needed. */
  local?: boolean;
  /** The `--help` example (after `npm run sesame -- `); by default made from the usage (help.ts). */
  example?: string;
  run(call: AdminCall, o: Options, ctx?: Context): Promise<Output>;
}
