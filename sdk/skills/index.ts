/**
 * `pincer/sdk/skills`: serve skill directories from a plugin with the same discovery limits,
 * containment, frontmatter contract, scanner and shared watchers as Pincer's own `skills`
 * plugin; and the scanner and workshop gate on their own. Named exports only.
 */
export { createDirectorySkillSource } from './directory-source.js';
export type { DirectorySourceOptions, DirectorySkillSource } from './directory-source.js';
export { SKILL_SOURCES } from './sources.js';
export type { SkillSourceKind } from './sources.js';
export { UNCONTAINED, isInside } from './discovery/containment.js';
export type { ContainmentPolicy } from './discovery/containment.js';
export { contentVersion, readSkillFile, SKILL_FILE } from './discovery/read-skill-file.js';
export { parseFrontmatter } from './frontmatter/parse.js';
export { readSkillFields } from './frontmatter/fields.js';
export { filterInstallSpec } from './frontmatter/install-spec.js';
export { DEFAULT_SKILL_LIMITS, CONFIGURED_ROOT_DEPTH, resolveSkillLimits } from './limits.js';
export type { SkillDiscoveryLimits } from './limits.js';
export { loadSkillSource } from './load-source.js';
export type { SourceRoot, LoadSourceOptions } from './load-source.js';
export { ScanCache } from './scanner/scan-cache.js';
export { scanSkillDirectory } from './scanner/scan-directory.js';
export { scanSource } from './scanner/source-rules.js';
export { scanSkillText, SKILL_TEXT_RULES, WORKSHOP_RULES } from './scanner/text-rules.js';
export { MAX_FINDINGS_PER_RULE } from './scanner/findings.js';
export { checkSkillProposal } from './workshop.js';
export type { WorkshopVerdict } from './workshop.js';
export { countingSkillFs, nodeSkillFs } from './skill-fs.js';
export type { SkillFs } from './skill-fs.js';
export { WatcherPool, SKILLS_WATCH_DEBOUNCE_MS, chokidarWatchFactory } from './watch/watcher-pool.js';
export type { WatcherPoolOptions, WatchFactory, NativeWatcher } from './watch/watcher-pool.js';
