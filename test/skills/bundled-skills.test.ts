import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSkillProposal } from '../../sdk/skills/index.js';

const bundled = resolve(import.meta.dirname, '../../plugins/skills/bundled');

describe('the skills shipped with Pincer', () => {
  const names = readdirSync(bundled);

  it('are the documented three', () => {
    expect(names.sort()).toEqual(['pincer-explain', 'pincer-plugin-authoring', 'pincer-skill-authoring']);
  });

  it.each(names)('%s is a valid skill with no finding, even under the workshop rules', async (name) => {
    const verdict = await checkSkillProposal(join(bundled, name));
    expect(verdict).toEqual({ state: 'clean', name, findings: [] });
  });
});
