// The baseline of the webhook figure, run as its own process by bench/webhook.mjs: a bare node:http server that
// does for each event what the webhook cannot skip — read the body, verify the signature with the official
// package (constructEventAsync), insert one row — and answers the very bytes the app answered (status, headers,
// body), with the same number of database connections as the app (10).
// Arguments: port, database URL, webhook secret, and the app's answer as JSON { status, headers, body }.
import { createServer } from 'node:http';
import postgres from 'postgres';
import Stripe from 'stripe';

const [port, databaseUrl, secret, answerJson] = process.argv.slice(2);
const answer = JSON.parse(answerJson);
const body = Buffer.from(answer.body, 'base64');
const stripe = new Stripe('sk_test_bench');
const db = postgres(databaseUrl, { max: 10, onnotice: () => {} });

createServer(async (req, res) => {
	try {
		const chunks = [];
		for await (const chunk of req) chunks.push(chunk);
		const event = await stripe.webhooks.constructEventAsync(
			Buffer.concat(chunks).toString('utf8'),
			req.headers['stripe-signature'],
			secret
		);
		await db`insert into bench_events (id) values (${event.id})`;
		res.writeHead(answer.status, answer.headers);
		res.end(body);
	} catch (error) {
		res.writeHead(500, { 'content-type': 'text/plain' });
		res.end(String(error));
	}
}).listen(Number(port), '127.0.0.1', () => console.log('ready'));
