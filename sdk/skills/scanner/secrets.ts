/**
 * Recognized literal credential formats. A match is a critical finding whose evidence is
 * always redacted: a scanner report must not become the place a secret leaks from. Every
 * repetition is bounded, so a long line cannot make a pattern backtrack for minutes.
 */
const FORMATS: readonly RegExp[] = [
  /\bAKIA[0-9A-Z]{16}\b/, // AWS access key id
  /\bgh[pousr]_[A-Za-z0-9]{36}/, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{22}/,
  /\bsk-ant-[A-Za-z0-9_-]{20}/, // Anthropic
  /\bsk-(?:proj-)?[A-Za-z0-9_-]{0,64}?[A-Za-z0-9]{32}/, // OpenAI
  /\bxox[abposr]-[A-Za-z0-9-]{10}/, // Slack
  /\bAIza[0-9A-Za-z_-]{35}\b/, // Google API key
  /\b[rs]k_live_[0-9A-Za-z]{24}/, // Stripe
  /\bglpat-[A-Za-z0-9_-]{20}/, // GitLab
  /\bnpm_[A-Za-z0-9]{36}/, // npm
  /-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?-----/,
];

export const LITERAL_SECRET = new RegExp(FORMATS.map((f) => f.source).join('|'));
