"""Small PyTorch models written as HuggingFace's BERT, GPT-2 and Llama compute them, with a
variable sequence length: from_torch's reference workload (tests/frontends/test_torch.py runs
them live, tests/data/torch/export_torch.py stores their modules and eager outputs).

Each is 2 layers of width 32 with 4 heads and a vocabulary of 96; weights come from a fixed
seed. BERT returns a dict, GPT-2 a tensor, Llama a tuple: the output structures from_torch
keeps. torch is imported here: import this module only where torch is installed.
"""

from __future__ import annotations

import math

import torch
from torch import nn

VOCAB, WIDTH, HEADS, LAYERS = 96, 32, 4, 2
BOUND = 64          # the sequence length's bound (GPT-2's position table has this many rows)


def _heads(x, heads):
    """[B, T, D] -> [B, H, T, D/H], as HF's attention splits heads."""
    b, t, d = x.shape
    return x.view(b, t, heads, d // heads).transpose(1, 2)


def _attend(q, k, v, bias):
    """Softmax attention over the heads with an additive mask bias; [B, T, D] out."""
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]) + bias
    out = scores.softmax(-1) @ v
    b, h, t, e = out.shape
    return out.transpose(1, 2).reshape(b, t, h * e)


class BertLayer(nn.Module):
    """Post-LayerNorm encoder layer: bidirectional attention with a padding mask, GELU MLP."""

    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(WIDTH, 3 * WIDTH)
        self.out = nn.Linear(WIDTH, WIDTH)
        self.ln1, self.ln2 = nn.LayerNorm(WIDTH), nn.LayerNorm(WIDTH)
        self.up, self.down = nn.Linear(WIDTH, 4 * WIDTH), nn.Linear(4 * WIDTH, WIDTH)

    def forward(self, x, bias):
        q, k, v = (_heads(t, HEADS) for t in self.qkv(x).split(WIDTH, dim=-1))
        x = self.ln1(x + self.out(_attend(q, k, v, bias)))
        return self.ln2(x + self.down(nn.functional.gelu(self.up(x))))


class Bert(nn.Module):
    """BertModel: word + position + token-type embeddings, LayerNorm, encoder layers, a tanh
    pooler over the first token. (input_ids, attention_mask) -> dict."""

    def __init__(self):
        super().__init__()
        self.words, self.positions = nn.Embedding(VOCAB, WIDTH), nn.Embedding(BOUND, WIDTH)
        self.types = nn.Embedding(2, WIDTH)
        self.ln = nn.LayerNorm(WIDTH)
        self.layers = nn.ModuleList(BertLayer() for _ in range(LAYERS))
        self.pool = nn.Linear(WIDTH, WIDTH)

    def forward(self, input_ids, attention_mask):
        t = input_ids.shape[1]
        pos = torch.arange(t, device=input_ids.device)
        x = self.ln(self.words(input_ids) + self.positions(pos) +
                    self.types(torch.zeros_like(input_ids)))
        # HF's extended mask: 0 where attended, the dtype's minimum where padded
        bias = (1.0 - attention_mask[:, None, None, :].float()) * torch.finfo(x.dtype).min
        for layer in self.layers:
            x = layer(x, bias)
        return {"last_hidden_state": x, "pooler_output": torch.tanh(self.pool(x[:, 0]))}


class Gpt2Block(nn.Module):
    """Pre-LayerNorm decoder block: causal attention (a lower-triangular mask), GELU MLP."""

    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(WIDTH), nn.LayerNorm(WIDTH)
        self.qkv = nn.Linear(WIDTH, 3 * WIDTH)
        self.proj = nn.Linear(WIDTH, WIDTH)
        self.fc, self.fc_out = nn.Linear(WIDTH, 4 * WIDTH), nn.Linear(4 * WIDTH, WIDTH)

    def forward(self, x):
        t = x.shape[1]
        q, k, v = (_heads(h, HEADS) for h in self.qkv(self.ln1(x)).split(WIDTH, dim=-1))
        causal = torch.ones(t, t, dtype=torch.bool, device=x.device).tril()
        bias = torch.zeros(t, t, device=x.device).masked_fill(~causal, float("-inf"))
        x = x + self.proj(_attend(q, k, v, bias))
        return x + self.fc_out(nn.functional.gelu(self.fc(self.ln2(x)), approximate="tanh"))


class Gpt2(nn.Module):
    """GPT2LMHeadModel: token + learned position embeddings, blocks, final LayerNorm, a tied
    LM head. input_ids -> logits."""

    def __init__(self):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(VOCAB, WIDTH), nn.Embedding(BOUND, WIDTH)
        self.blocks = nn.ModuleList(Gpt2Block() for _ in range(LAYERS))
        self.ln_f = nn.LayerNorm(WIDTH)

    def forward(self, input_ids):
        pos = torch.arange(input_ids.shape[1], device=input_ids.device)
        x = self.wte(input_ids) + self.wpe(pos)
        for block in self.blocks:
            x = block(x)
        return self.ln_f(x) @ self.wte.weight.T


class RmsNorm(nn.Module):
    """LlamaRMSNorm: x * rsqrt(mean(x^2) + eps), scaled."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(WIDTH))

    def forward(self, x):
        return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6))


def _rotate(x, cos, sin):
    """Llama's rotary embedding: x * cos + rotate_half(x) * sin."""
    half = x.shape[-1] // 2
    rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos + rotated * sin


class LlamaLayer(nn.Module):
    """RMSNorm, causal attention with rotary q/k (no biases), SiLU-gated MLP, residuals."""

    def __init__(self):
        super().__init__()
        self.norm1, self.norm2 = RmsNorm(), RmsNorm()
        self.q, self.k = nn.Linear(WIDTH, WIDTH, bias=False), nn.Linear(WIDTH, WIDTH, bias=False)
        self.v, self.o = nn.Linear(WIDTH, WIDTH, bias=False), nn.Linear(WIDTH, WIDTH, bias=False)
        self.gate = nn.Linear(WIDTH, 2 * WIDTH, bias=False)
        self.up = nn.Linear(WIDTH, 2 * WIDTH, bias=False)
        self.down = nn.Linear(2 * WIDTH, WIDTH, bias=False)

    def forward(self, x, cos, sin, bias):
        h = self.norm1(x)
        q = _rotate(_heads(self.q(h), HEADS), cos, sin)
        k = _rotate(_heads(self.k(h), HEADS), cos, sin)
        x = x + self.o(_attend(q, k, _heads(self.v(h), HEADS), bias))
        h = self.norm2(x)
        return x + self.down(nn.functional.silu(self.gate(h)) * self.up(h))


class Llama(nn.Module):
    """LlamaForCausalLM: embeddings, rotary tables from a buffer of inverse frequencies,
    layers with a causal mask of the dtype's minimum, final RMSNorm, LM head.
    input_ids -> (logits, last hidden state)."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, WIDTH)
        self.layers = nn.ModuleList(LlamaLayer() for _ in range(LAYERS))
        self.norm = RmsNorm()
        self.head = nn.Linear(WIDTH, VOCAB, bias=False)
        dim = WIDTH // HEADS
        self.register_buffer("inv_freq", 1.0 / 10000 ** (torch.arange(0, dim, 2).float() / dim))

    def forward(self, input_ids):
        t = input_ids.shape[1]
        x = self.embed(input_ids)
        angles = torch.arange(t, device=x.device).float()[:, None] * self.inv_freq[None, :]
        angles = torch.cat((angles, angles), dim=-1)
        cos, sin = angles.cos(), angles.sin()
        bias = torch.full((t, t), torch.finfo(x.dtype).min, device=x.device).triu(1)
        for layer in self.layers:
            x = layer(x, cos, sin, bias)
        x = self.norm(x)
        return self.head(x), x


def build(name: str) -> nn.Module:
    """The named model in eval mode, with weights from a fixed seed (RMSNorm scales moved off 1
    so that they matter)."""
    torch.manual_seed({"bert": 1, "gpt2": 2, "llama": 3}[name])
    model = {"bert": Bert, "gpt2": Gpt2, "llama": Llama}[name]().eval()
    with torch.no_grad():
        for p in model.parameters():
            if p.dim() == 1 and p.shape[0] == WIDTH and name == "llama":
                p.add_(torch.randn_like(p) * 0.1)
    return model


def example(name: str, batch: int, length: int, seed: int = 0) -> tuple:
    """Arguments of the named model at one size: token ids (and BERT's padding mask, whose last
    quarter of the second row is padding)."""
    g = torch.Generator().manual_seed(seed + 1000 * length + batch)
    ids = torch.randint(0, VOCAB, (batch, length), generator=g)
    if name != "bert":
        return (ids,)
    mask = torch.ones(batch, length, dtype=torch.int64)
    if batch > 1:
        mask[1, length - length // 4:] = 0
    return ids, mask


def dynamic_shapes(name: str, batch_bound: int | None = None) -> dict:
    """The sequence length T (1..BOUND) on every argument; the batch B too when bounded."""
    seq = torch.export.Dim("T", min=1, max=BOUND)
    dims = {1: seq}
    if batch_bound:
        dims[0] = torch.export.Dim("B", min=1, max=batch_bound)
    if name == "bert":
        return {"input_ids": dims, "attention_mask": dict(dims)}
    return {"input_ids": dims}
