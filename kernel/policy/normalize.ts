// The kernel shares the SDK's pure normalizer so both sides always agree on names.
export { normalizeToolPolicyName, normalizeToolList } from '../../sdk/policy/index.js';
