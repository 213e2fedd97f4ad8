import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface KillAtRandomOptions {
  /** The writer child, a TypeScript file run as `node --import tsx <script> <dir> r<round>`. */
  script: string;
  /** The data directory the writer writes into, handed to it as its first argument. */
  dir: string;
  /** How many children to start and kill one after the other. */
  rounds: number;
  /** Each child is killed after `min` + a random number below `spread` answered lines. */
  killAfter: { min: number; spread: number };
  /** Names the child and what its lines are, for the message when one stops early: `the writer`, `writes`. */
  child: string;
  unit: string;
}

/**
 * The kill -9 harness of the crash tests: runs the writer `rounds` times, collecting every line it prints (one
 * line per write it has seen answered), and SIGKILLs each child after a random count of lines. Returns every
 * line read, in order, for the test to check that each one survived. Fails when a child exits before it was
 * killed (a writer that stops early proves nothing about crashes).
 */
export async function killAtRandom(options: KillAtRandomOptions): Promise<string[]> {
  const { script, dir, rounds, killAfter: range, child: name, unit } = options;
  const answered: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const child = spawn(process.execPath, ['--import', 'tsx', script, dir, `r${round}`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: child.stdout! });
    const killAfter = range.min + Math.floor(Math.random() * range.spread);
    let seen = 0;
    await new Promise<void>((resolve) => {
      lines.on('line', (line) => {
        answered.push(line);
        if (++seen === killAfter) child.kill('SIGKILL');
      });
      child.on('exit', () => resolve());
    });
    assert.ok(seen >= killAfter, `round ${round}: ${name} stopped after ${seen} ${unit}`);
  }
  return answered;
}
