/**
 * A handshake answer or manifest is checked in two parts: its envelope strictly (one bad field
 * refuses the plugin), and its tool list tool by tool (one bad tool is dropped, the rest stay).
 */
export function splitRawTools(value: unknown): { envelope: unknown; tools: unknown } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { envelope: value, tools: [] };
  const contributes = (value as { contributes?: unknown }).contributes;
  if (contributes === null || typeof contributes !== 'object' || Array.isArray(contributes)) return { envelope: value, tools: [] };
  const { tools = [], ...others } = contributes as { tools?: unknown };
  return { envelope: { ...value, contributes: { ...others, tools: [] } }, tools };
}
