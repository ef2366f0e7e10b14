package io.sluice.governance.provider;

/**
 * How a provider is addressed. Everything but Azure speaks OpenAI's paths ({@code {base}/chat/completions})
 * with {@code Authorization: Bearer}: OpenAI itself, vLLM, Ollama ({@code http://host:11434/v1}), llama.cpp
 * server, DeepSeek ({@code https://api.deepseek.com/v1}), DashScope compatible mode
 * ({@code https://dashscope.aliyuncs.com/compatible-mode/v1}). Azure OpenAI addresses a deployment
 * ({@code {base}/openai/deployments/{model}/chat/completions?api-version=...}) with an {@code api-key} header.
 */
public enum ProviderKind {
    OPENAI, OPENAI_COMPATIBLE, AZURE, VLLM, OLLAMA, DEEPSEEK, DASHSCOPE;

    public boolean azure() {
        return this == AZURE;
    }
}
