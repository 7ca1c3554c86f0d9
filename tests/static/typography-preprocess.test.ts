// The build-time half of French typography: what the preprocessor does to a template, and that the public
// components really go through it (their compiled output calls the helper).
import { readFileSync } from 'node:fs';
import { compile, preprocess } from 'svelte/compiler';
import { describe, expect, it } from 'vitest';
import { typography } from '../../scripts/svelte-typography.js';
import config from '../../svelte.config.js';
import { NNBSP, typeset } from '../../src/lib/typography.js';

const pre = typography({ include: /\/public\//, typeset });
const run = async (source: string, filename = '/app/public/Page.svelte') =>
	(await preprocess(source, pre, { filename })).code;

describe('the typography preprocessor', () => {
	it('typesets text, wraps text expressions, and adds the import', async () => {
		const code = await run(
			'<script lang="ts">let { phone } = $props();</script>\n<p title="Pourquoi ?">Une question ? Appelez le {phone}.</p>'
		);
		expect(code).toContain(`Une question${NNBSP}? Appelez le {__typeset(phone)}.`);
		expect(code).toContain(`title="Pourquoi${NNBSP}?"`);
		expect(code).toContain("import { typeset as __typeset } from '$lib/typography';");
		// Still a valid component.
		expect(() => compile(code, { generate: 'server' })).not.toThrow();
	});

	it('leaves URLs, classes, code and textareas alone, and files outside its scope', async () => {
		const source =
			'<a href="https://x.fr/?a=1" class="a:b">x</a><code>a ; b</code><textarea>{v}</textarea><pre>Quoi ?</pre>';
		expect(await run(source)).toBe(source);
		expect(await run('<p>Quoi ? {x}</p>', '/app/admin/Page.svelte')).toBe('<p>Quoi ? {x}</p>');
	});

	it('spells out a shorthand text attribute to wrap it', async () => {
		const code = await run('<script>let { alt } = $props();</script><img {alt} src="/a.webp" />');
		expect(code).toContain('<img alt={__typeset(alt)} src="/a.webp" />');
		expect(() => compile(code, { generate: 'server' })).not.toThrow();
	});

	it('creates a script when the component has none', async () => {
		const code = await run('<p>{a}</p>');
		expect(code.startsWith('<script>import { typeset as __typeset }')).toBe(true);
		expect(() => compile(code, { generate: 'client' })).not.toThrow();
	});

	const built = async (file: string) =>
		(await preprocess(readFileSync(file, 'utf8'), config.preprocess ?? [], { filename: `${process.cwd()}/${file}` })).code;

	it('is the one the build uses, on the public pages', async () => {
		const code = await built('src/lib/components/marketing/DemoSite.svelte');
		expect(code).toContain('>{__typeset(site.phone)}</a>');
		// The hero shows what a page hands it (a prop given as one expression may be anything: not wrapped there),
		// each text typeset where it is shown.
		const hero = await built('src/lib/components/layout/Hero.svelte');
		for (const shown of ['{__typeset(eyebrow)}', '{__typeset(title)}', '{__typeset(secondary.label)}'])
			expect(hero).toContain(shown);
	});

	it('runs on everything but the admin and the e-mails: the wizard’s text too, found without a list of folders', async () => {
		expect(await built('src/lib/components/candidature/StepRecap.svelte')).toContain('__typeset');
		expect(await built('src/routes/(marketing)/candidature/+page.svelte')).toContain(`sur 4${NNBSP}:`);
		for (const file of ['src/lib/components/admin/LeadActions.svelte', 'src/routes/admin/+page.svelte', 'src/lib/server/mail/templates/Letter.svelte'])
			expect(await built(file), file).not.toContain('__typeset');
	});
});
