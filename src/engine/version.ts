/** Version of the configuration engine; part of every cart line's `cache` member. */
export const ENGINE_VERSION = '1.3.0';
