/**
 * For command tests: a stand-in for the admin client's call that records each request (method, path, body)
 * and answers every one with `answer`, so a test asserts exactly what a command sends and prints.
 */
export function recording(answer: Record<string, unknown>) {
  const calls: Array<[string, string, unknown]> = [];
  const call = (async (method: string, path: string, body?: unknown) => {
    calls.push([method, path, body]);
    return answer;
  }) as never;
  return { calls, call };
}
