// Package model implements contract.LocalModel for Ollama (/api/generate,
// /api/tags) and for OpenAI-compatible chat completions
// (/chat/completions, /models).
package model
