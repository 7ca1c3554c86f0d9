/**
 * The rules docker/compose.yaml keeps (issue "Self-hosting, part 1", point 4), as one function from the file's
 * text to the list of what breaks them, so that the test can check the real file and each rule broken on purpose.
 */
import { parse } from 'yaml';

interface Service {
	image?: string;
	entrypoint?: string | string[];
	build?: unknown;
	profiles?: string[];
	environment?: Record<string, string | number | boolean | null>;
	env_file?: (string | { path: string })[];
	stop_grace_period?: string;
	logging?: { driver?: string; options?: Record<string, string> };
}

export interface ComposeInputs {
	compose: string;
	/** .env.example's text (its values: a required setting must be left empty there). */
	envExampleText?: string;
	/** Variables the README documents (its configuration table and reverse-proxy section). */
	documented: string[];
	/** Variables .env.example lists, set or commented out. */
	envExample: string[];
}

const SECRET = /PASSWORD|SECRET|TOKEN|_KEY$/;
/** The app's drain on SIGTERM (src/server/index.ts: 10 s for requests, then 5 s for background e-mails). */
const APP_DRAIN_SECONDS = 15;

function seconds(duration: string | undefined): number {
	const match = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(duration ?? '');
	return match ? Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0) : 0;
}

/** What compose must refuse to start without. */
const REQUIRED_SETTINGS = ['ORIGIN', 'MAIL_FROM', 'ADMIN_EMAIL'];

export function composeProblems({ compose, documented, envExample, envExampleText = '' }: ComposeInputs): string[] {
	const problems: string[] = [];
	const envExampleValues = new Map(
		[...envExampleText.matchAll(/^([A-Z][A-Z0-9_]+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!.trim()])
	);
	const file = parse(compose) as { services: Record<string, Service> };
	const services = Object.entries(file.services ?? {});
	const app = file.services?.app;
	if (!app) return ['no app service'];

	for (const [name, service] of services) {
		// Pinned: a tag with at least major.minor; only the app's own image (built here) is local.
		const image = service.image ?? '';
		const local = service.build !== undefined || image === app.image;
		if (!local && !/:v?\d+\.\d+/.test(image)) problems.push(`image not pinned to a version: ${name} (${image || 'none'})`);
		if (/:latest$/.test(image) || (image && !image.includes(':'))) problems.push(`image on latest: ${name}`);
		if (!service.logging?.options?.['max-size']) problems.push(`logs not rotated: ${name}`);
	}

	// No default secret: a secret is required (${VAR:?message}) or comes from .env through env_file.
	for (const match of compose.matchAll(/\$\{([A-Z0-9_]+)(:?[-?])([^}]*)\}/g)) {
		const [, variable, operator, rest] = match;
		if (SECRET.test(variable!) && operator!.endsWith('-') && rest !== '')
			problems.push(`default secret: ${variable}`);
		if (SECRET.test(variable!) && operator!.endsWith('?') && !rest!.trim())
			problems.push(`required secret without a message saying what to set: ${variable}`);
	}
	for (const [name, service] of services) {
		for (const [variable, value] of Object.entries(service.environment ?? {})) {
			if (SECRET.test(variable) && typeof value === 'string' && value !== '' && !value.includes('${'))
				problems.push(`secret written in the file: ${name}.${variable}`);
		}
	}

	// Every documented variable reaches the app: an env_file of .env, and nothing the stack sets hides one of them
	// unless the stack decides it (database, storage, data folder).
	const envFiles = (app.env_file ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.path));
	if (!envFiles.some((path) => /(^|\/)\.env$/.test(path))) problems.push('the app does not read .env (env_file)');
	const appEnv = app.environment ?? {};
	for (const variable of documented) {
		const value = appEnv[variable];
		if (typeof value === 'string' && !value.includes(`\${${variable}`) && !STACK_DECIDES.has(variable))
			problems.push(`documented variable overridden by the file: ${variable}`);
	}
	// SMTP is the user's: never a hard-coded server; Mailpit only behind a profile.
	const smtp = String(appEnv.SMTP_URL ?? '');
	if (smtp && !smtp.startsWith('${SMTP_URL:?')) problems.push('SMTP_URL is not the user’s (required from .env)');
	for (const [name, service] of services) {
		if (/mailpit/.test(service.image ?? '') && !service.profiles?.length)
			problems.push(`mail catcher outside a profile: ${name}`);
	}

	// The other services' secrets (the storage server's admin token, the database's superuser password) are blanked
	// for the app, which gets its own narrower credentials.
	// A secret is named by what .env calls it (`${NAME}` in its value); an app setting shared on purpose (the metrics
	// token Prometheus sends back) is the app's own.
	for (const [name, service] of services) {
		if (name === 'app' || service.image === app.image) continue;
		for (const [variable, value] of Object.entries(service.environment ?? {})) {
			if (!SECRET.test(variable)) continue;
			const fromEnv = [...String(value ?? '').matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]!);
			for (const secret of fromEnv.length ? fromEnv : [variable])
				if (appEnv[secret] !== '' && !documented.includes(secret)) problems.push(`the app may receive ${name}'s ${secret}`);
		}
	}

	// Where the site is, who e-mails come from and who reads the leads: required, never a default (a lead announced
	// to no-reply@<host> is a lead lost), and empty in .env.example so that the requirement fires.
	for (const variable of REQUIRED_SETTINGS) {
		const value = String(appEnv[variable] ?? '');
		if (!value.startsWith(`\${${variable}:?`) || value === `\${${variable}:?}`)
			problems.push(`${variable} is not required with a message`);
		if (envExampleValues.get(variable)) problems.push(`.env.example pre-fills ${variable}`);
	}
	// The `tls` profile's proxy refuses to start without its domain.
	const proxy = file.services?.proxy;
	if (proxy && !/\[ -n "\$\$SITE_DOMAIN" \] \|\| \{ echo "[^"]+" >&2; exit 1; \}/.test(JSON.stringify(proxy.entrypoint ?? '').replaceAll('\\"', '"')))
		problems.push('the tls proxy starts without SITE_DOMAIN');

	if (seconds(app.stop_grace_period) <= APP_DRAIN_SECONDS)
		problems.push(`stop_grace_period does not cover the app's drain (${APP_DRAIN_SECONDS} s)`);

	const readByCompose = new Set([...compose.matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]!));
	for (const variable of readByCompose)
		if (!envExample.includes(variable)) problems.push(`.env.example does not list ${variable}`);
	for (const variable of documented)
		if (!envExample.includes(variable)) problems.push(`.env.example does not list ${variable}`);

	return problems;
}

/** Set by the stack for the app, whatever .env says: these are where its services are. */
const STACK_DECIDES = new Set(['PORT', 'HOST', 'DATA_DIR', 'DATABASE_URL', 'STORAGE_DRIVER', 'S3_ENDPOINT', 'S3_REGION']);

/** `VARIABLE` names in the README's configuration table and reverse-proxy section. */
export function documentedVariables(readme: string): string[] {
	const start = readme.indexOf('## Configuration');
	const end = readme.indexOf('\n## ', start + 1);
	const section = readme.slice(start, end === -1 ? undefined : end);
	return [...new Set([...section.matchAll(/`([A-Z][A-Z0-9_]{2,})`/g)].map((m) => m[1]!))];
}

/** Variables in .env.example, set (`NAME=`) or commented out (`# NAME=`). */
export function envExampleVariables(text: string): string[] {
	return [...text.matchAll(/^#?\s?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!);
}
