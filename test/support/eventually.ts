type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Waits until `condition` answers something truthy, and returns it: asked again every `everyMs`,
 * and failing, naming `what`, when it still has not after `withinMs`. What a test waits for is
 * the condition; the deadline only bounds a test that would otherwise hang, so it is generous
 * enough for any machine, however busy.
 */
export async function eventually<T>(
  condition: () => Promise<T> | T,
  what: string,
  withinMs = 30_000,
  everyMs = 50,
): Promise<Truthy<T>> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const answer = await condition();
    if (answer) return answer as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
