/**
 * `redirectTo` values that try to send a signed-in visitor off the site, as they arrive in the handler (already
 * decoded once from the query string). Shared by the unit table and the e2e sign-in check.
 */
export function hostileRedirects(origin: string): string[] {
	const host = new URL(origin).host;
	return [
		// scheme-relative and slash tricks
		'//evil.example/x',
		'///evil.example',
		'////evil.example/',
		'/\\evil.example',
		'\\\\evil.example',
		'\\/evil.example',
		'/\\/evil.example',
		// dot-segments, plain and encoded
		'/a/../..//evil.example',
		'/./..//evil.example',
		'/%2e%2e//evil.example',
		'/%2e%2e/%2e%2e//evil.example',
		'/.%2e/%2f%2fevil.example',
		// encoded slashes and backslashes, single and double encoding
		'/%2f%2fevil.example',
		'%2f%2fevil.example',
		'/%2F%2Fevil.example/',
		'/%252f%252fevil.example',
		'/%5cevil.example',
		'/%255c%255cevil.example',
		'/%25252f%25252fevil.example',
		// tabs, newlines, CR, NUL, spaces inside
		'/\t/evil.example',
		'/\n/evil.example',
		'/\r/evil.example',
		'/%09/evil.example',
		'/%0d%0a/evil.example',
		'/\u0000/evil.example',
		' //evil.example',
		'/\u3000/evil.example',
		// other schemes
		'javascript:alert(document.domain)',
		'JaVaScRiPt:alert(1)',
		'java\tscript:alert(1)',
		'data:text/html,<script>alert(1)</script>',
		'vbscript:msgbox(1)',
		'https://evil.example/',
		'http:/evil.example',
		'http:\\\\evil.example',
		'https:evil.example',
		// userinfo
		'/@evil.example',
		`https://${host}@evil.example/`,
		`//${host}@evil.example`,
		`https://user:pass@${host}/dashboard`,
		// look-alike hosts
		`https://${host}.evil.example/`,
		`https://evil.example#${host}`,
		`https://evil.example?${host}`,
		// relative without a leading slash, and overlong
		'evil.example',
		'/' + 'a'.repeat(5000),
		'/%'
	];
}
