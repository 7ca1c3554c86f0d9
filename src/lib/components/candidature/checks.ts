/**
 * The wizard's field checks as a hashed asset, for each step's `<Form data-checks>`: enhance.js loads it once a
 * person starts filling the step in. Never inlined as a data: URL (Vite inlines small assets): the CSP takes
 * scripts from 'self' only.
 */
export { default as checksScript } from '$lib/platform/form-checks.js?url&no-inline';
