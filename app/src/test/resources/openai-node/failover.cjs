// Drives Sluice's /v1 with the official `openai` npm package while providers a (down) and b (rate-limited)
// fail: plain calls and a stream must be answered. Run by OpenAiMultiProviderTest: OPENAI_MODULE, BASE_URL, API_KEY.
const OpenAI = require(process.env.OPENAI_MODULE);

async function main() {
  const client = new OpenAI({ baseURL: process.env.BASE_URL, apiKey: process.env.API_KEY, maxRetries: 0 });
  const providers = [];
  for (let i = 0; i < 4; i++) {
    const { data, response } = await client.chat.completions.create({
      model: 'gpt-x', messages: [{ role: 'user', content: 'Where is my parcel ' + i + '?' }],
    }).withResponse();
    providers.push({ provider: response.headers.get('x-sluice-provider'), finish: data.choices[0].finish_reason });
  }
  const stream = await client.chat.completions.create({
    model: 'primary', messages: [{ role: 'user', content: 'How long does a refund take?' }], stream: true,
  });
  let text = '';
  for await (const chunk of stream) {
    if (chunk.choices.length > 0) text += chunk.choices[0].delta.content || '';
  }
  process.stdout.write(JSON.stringify({ providers, stream: { text } }));
}

main().catch((e) => {
  process.stdout.write(JSON.stringify({ error: String(e && e.stack || e) }));
  process.exitCode = 1;
});
