// Drives Sluice's /v1 with the official `openai` npm package; prints one JSON object of results.
// Run by OpenAiFrontDoorTest: OPENAI_MODULE = the installed package, BASE_URL, API_KEY.
const OpenAI = require(process.env.OPENAI_MODULE);

async function main() {
  const client = new OpenAI({ baseURL: process.env.BASE_URL, apiKey: process.env.API_KEY, maxRetries: 0 });
  const out = {};

  const plain = await client.chat.completions.create({
    model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'How long does a refund take?' }], max_tokens: 8,
  });
  out.plain = { text: plain.choices[0].message.content, finish: plain.choices[0].finish_reason, usage: plain.usage };

  const tools = [{ type: 'function', function: { name: 'lookup_order', parameters: { type: 'object', properties: {} } } }];
  const call = await client.chat.completions.create({
    model: 'primary', messages: [{ role: 'user', content: 'Where is order 42?' }], tools, n: 2,
  });
  const toolCall = call.choices[0].message.tool_calls[0];
  const answer = await client.chat.completions.create({
    model: 'primary', tools, max_completion_tokens: 4,
    messages: [{ role: 'user', content: 'Where is order 42?' }, call.choices[0].message,
      { role: 'tool', tool_call_id: toolCall.id, content: '{"status":"shipped"}' }],
  });
  out.tools = { choices: call.choices.length, finish: call.choices[0].finish_reason, name: toolCall.function.name,
    answerFinish: answer.choices[0].finish_reason };

  const json = await client.chat.completions.create({
    model: 'primary', messages: [{ role: 'user', content: 'Answer in JSON' }], response_format: { type: 'json_object' },
  });
  out.json = { finish: json.choices[0].finish_reason };

  const stream = await client.chat.completions.create({
    model: 'primary', messages: [{ role: 'user', content: '退款多久到账？' }], stream: true,
    stream_options: { include_usage: true },
  });
  let text = '';
  let usage = null;
  for await (const chunk of stream) {
    if (chunk.choices.length > 0) text += chunk.choices[0].delta.content || '';
    if (chunk.usage) usage = chunk.usage;
  }
  out.stream = { text, usage };

  try {
    await client.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] });
    out.notFound = { status: 200 };
  } catch (e) {
    out.notFound = { status: e.status, message: e.message };
  }
  try {
    const stranger = new OpenAI({ baseURL: process.env.BASE_URL, apiKey: 'sk-sluice-wrong', maxRetries: 0 });
    await stranger.models.list();
    out.badKey = { status: 200 };
  } catch (e) {
    out.badKey = { status: e.status, message: e.message };
  }

  const embedding = await client.embeddings.create({ model: 'embedding', input: ['退款多久到账', 'where is my order'] });
  out.embeddings = { count: embedding.data.length, dimensions: embedding.data[0].embedding.length };

  process.stdout.write(JSON.stringify(out));
}

main().catch((e) => {
  process.stdout.write(JSON.stringify({ error: String(e && e.stack || e) }));
  process.exitCode = 1;
});
