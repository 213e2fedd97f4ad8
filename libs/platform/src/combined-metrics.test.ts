import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { Counter } from 'prom-client';
import { combinedMetrics, createMetrics, shareMetric } from './metrics';

describe('combinedMetrics', () => {
  it("carries each service's series with its label, one HELP per metric, process-wide series once", async () => {
    const shared = shareMetric(
      new Counter({ name: 'sesame_test_shared_total', help: 'a library metric', registers: [] }),
    );
    const auth = createMetrics('auth');
    const token = createMetrics('token');
    auth.errors.inc({ kind: 'a' });
    token.errors.inc({ kind: 't' }, 2);
    shared.inc(3);

    const text = await combinedMetrics([auth.registry, token.registry]);
    const lines = text.split('\n');
    assert.deepEqual(lines.filter((l) => l.startsWith('sesame_errors_total')).sort(), [
      'sesame_errors_total{kind="a",service="auth"} 1',
      'sesame_errors_total{kind="t",service="token"} 2',
    ]);
    assert.deepEqual(
      lines.filter((l) => l.startsWith('sesame_test_shared_total')),
      ['sesame_test_shared_total 3'],
    );
    assert.equal(lines.filter((l) => l.startsWith('process_start_time_seconds ')).length, 1);
    const helps = lines.filter((l) => l.startsWith('# HELP ')).map((l) => l.split(' ')[2]);
    assert.equal(helps.length, new Set(helps).size);
  });
});
