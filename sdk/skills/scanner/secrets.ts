/**
 * Recognized literal credential formats. A match is a critical finding whose evidence is
 * always redacted: a scanner report must not become the place a secret leaks from.
 */
const FORMATS: readonly RegExp[] = [
  /\bAKIA[0-9A-Z]{16}\b/, // AWS access key id
  /\bgh[pousr]_[A-Za-z0-9]{36,}\b/, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{22,}\b/,
  /\bsk-ant-[A-Za-z0-9_-]{20,}/, // Anthropic
  /\bsk-(?:proj-)?[A-Za-z0-9_-]*[A-Za-z0-9]{32,}\b/, // OpenAI
  /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/, // Slack
  /\bAIza[0-9A-Za-z_-]{35}\b/, // Google API key
  /\b[rs]k_live_[0-9A-Za-z]{24,}\b/, // Stripe
  /\bglpat-[A-Za-z0-9_-]{20,}\b/, // GitLab
  /\bnpm_[A-Za-z0-9]{36}\b/, // npm
  /-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----/,
];

export const LITERAL_SECRET = new RegExp(FORMATS.map((f) => f.source).join('|'));
