// Interop check: the official @a2a-js/sdk client against the a2ui-stream endpoint.
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';

const base = process.argv[2] ?? 'http://127.0.0.1:18080';
const EXT = 'https://a2ui.org/a2a-extension/a2ui/v0.9.1';
let failures = 0;
const check = (cond, what) => { if (!cond) { failures++; console.log('FAIL', what); } else console.log('ok  ', what); };

function describePart(p) {
  const c = p.content;
  if (c?.$case === 'text') return `text(${JSON.stringify(c.value)})`;
  if (c?.$case === 'data') return `data(${p.mediaType || p.metadata?.mimeType}; ${Array.isArray(c.value) ? 'list' : Object.keys(c.value).filter(k => k !== 'version').join(',')})`;
  return JSON.stringify(p);
}

async function exercise(label, client, transportName) {
  console.log(`--- ${label}: transport ${transportName}`);
  const mkMsg = (text) => ({ messageId: crypto.randomUUID(), role: 1 /* ROLE_USER */, parts: [{ content: { $case: 'text', value: text }, filename: '', mediaType: '' }], contextId: '', taskId: '', extensions: [], referenceTaskIds: [] });
  const opts = { serviceParameters: { 'A2A-Extensions': EXT } };
  const res = await client.sendMessage({ message: mkMsg('show me a form') }, opts);
  const parts = res.parts ?? [];
  console.log('sendMessage ->', 'role', res.role, parts.map(describePart).join(' | '));
  check(res.role === 2, `${label}: sendMessage role is agent`);
  check(parts.length === 4 && parts[1].content.$case === 'data', `${label}: sendMessage text + 2 data + text parts`);
  const mt = parts[1]?.mediaType || parts[1]?.metadata?.mimeType;
  check(mt === 'application/a2ui+json', `${label}: data part marked application/a2ui+json (got ${mt})`);

  const events = [];
  for await (const ev of client.sendMessageStream({ message: mkMsg('stream it') }, opts)) {
    const p = ev.payload;
    let d = p.$case;
    if (p.$case === 'statusUpdate') d += `(${p.value.status?.state}${p.value.status?.message ? ': ' + p.value.status.message.parts.map(describePart).join(',') : ''})`;
    if (p.$case === 'task') d += `(${p.value.status?.state})`;
    events.push(p);
    console.log('  event', d);
  }
  check(events[0]?.$case === 'task', `${label}: stream starts with a task`);
  const last = events.at(-1);
  check(last?.$case === 'statusUpdate' && last.value.status.state === 3, `${label}: stream ends with TASK_STATE_COMPLETED`);
  const dataEvents = events.filter(e => e.$case === 'statusUpdate' && e.value.status?.message?.parts?.some(p => p.content.$case === 'data'));
  check(dataEvents.length === 2, `${label}: one event per data part (${dataEvents.length})`);
}

// 1. Default configuration: card discovery picks the A2A 1.0 JSON-RPC interface.
{
  const client = await new ClientFactory().createFromUrl(base);
  await exercise('default (A2A 1.0)', client, client.transport?.constructor?.name);
}
// 2. 0.3 compatibility mode on our (superset) card: the client still prefers 1.0.
{
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
    cardResolver: new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }),
  }));
  const client = await factory.createFromUrl(base);
  await exercise('legacyCompat, superset card', client, client.transport?.constructor?.name);
}
// 3. 0.3 compatibility mode against the card's 0.3 fields only (what a 0.3-only
//    agent publishes): the client must use its v0.3 JSON-RPC transport.
{
  const raw = await (await fetch(base + '/.well-known/agent-card.json')).json();
  delete raw.supportedInterfaces;
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
  }));
  const client = await factory.createFromAgentCard(parseLegacyAgentCard(raw));
  await exercise('legacyCompat, 0.3 card', client, client.transport?.constructor?.name);
}
console.log(failures === 0 ? 'INTEROP OK' : `INTEROP FAILED: ${failures}`);
process.exit(failures === 0 ? 0 : 1);
