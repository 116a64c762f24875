/** Hostile handoff documents shared by tests. */

/** A few hundred bytes of YAML whose nested aliases expand to 10^9 strings ("billion laughs"). */
export function yamlBomb(): string {
  let text = `summary: s\nx0: &x0 [${Array(10).fill('lol').join(', ')}]\n`;
  for (let i = 1; i < 9; i++)
    text += `x${i}: &x${i} [${Array(10)
      .fill(`*x${i - 1}`)
      .join(', ')}]\n`;
  return text;
}
