/**
 * Password lengths every account is held to: the users' DTOs (HTTP and CLI) and the first
 * admin's ADMIN_PASSWORD (AppConfig, at start-up). Here, beside the configuration, so
 * that the configuration can check them without depending on the users feature.
 */
export const MIN_PASSWORD_LENGTH = 8;

/** Longer passwords are refused rather than silently truncated. */
export const MAX_PASSWORD_LENGTH = 1024;
