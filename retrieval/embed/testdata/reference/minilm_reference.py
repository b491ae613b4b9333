# Usage (see docs/embeddings.md): PYTHONPATH=<numpy+tokenizers> python3 minilm_reference.py MODEL_DIR sentences.json > ../minilm_golden.json
# Independent numpy reference for all-MiniLM-L6-v2 (sentence-transformers: BERT, mean pooling, normalize),
# tokenised with Hugging Face `tokenizers` from tokenizer.json.
import json, struct, sys, math
import numpy as np
from tokenizers import Tokenizer
D = sys.argv[1]
texts = json.load(open(sys.argv[2]))
raw = open(D + '/model.safetensors', 'rb').read()
n = struct.unpack('<Q', raw[:8])[0]
hdr = json.loads(raw[8:8+n]); body = raw[8+n:]
W = {}
for k, v in hdr.items():
    if k == '__metadata__' or v['dtype'] != 'F32': continue
    a, b = v['data_offsets']
    W[k] = np.frombuffer(body[a:b], dtype=np.float32).reshape(v['shape']).astype(np.float64)
cfg = json.load(open(D + '/config.json'))
tok = Tokenizer.from_file(D + '/tokenizer.json')
tok.no_padding(); tok.enable_truncation(256)
def ln(x, g, b, eps=1e-12):
    m = x.mean(-1, keepdims=True); v = ((x-m)**2).mean(-1, keepdims=True)
    return (x-m)/np.sqrt(v+eps)*g + b
from math import erf
verf = np.vectorize(erf)
H = cfg['hidden_size']; nh = cfg['num_attention_heads']; dh = H//nh
out = []
for t in texts:
    enc = tok.encode(t)
    ids = np.array(enc.ids)
    T = len(ids)
    x = W['embeddings.word_embeddings.weight'][ids] + W['embeddings.position_embeddings.weight'][:T] + W['embeddings.token_type_embeddings.weight'][0]
    x = ln(x, W['embeddings.LayerNorm.weight'], W['embeddings.LayerNorm.bias'])
    for l in range(cfg['num_hidden_layers']):
        p = 'encoder.layer.%d.' % l
        lin = lambda y, name: y @ W[p+name+'.weight'].T + W[p+name+'.bias']
        q = lin(x, 'attention.self.query').reshape(T, nh, dh).transpose(1,0,2)
        k = lin(x, 'attention.self.key').reshape(T, nh, dh).transpose(1,0,2)
        v = lin(x, 'attention.self.value').reshape(T, nh, dh).transpose(1,0,2)
        s = q @ k.transpose(0,2,1) / math.sqrt(dh)
        s = np.exp(s - s.max(-1, keepdims=True)); s /= s.sum(-1, keepdims=True)
        c = (s @ v).transpose(1,0,2).reshape(T, H)
        x = ln(lin(c, 'attention.output.dense') + x, W[p+'attention.output.LayerNorm.weight'], W[p+'attention.output.LayerNorm.bias'])
        h = lin(x, 'intermediate.dense'); h = 0.5*h*(1+verf(h/math.sqrt(2)))
        x = ln(lin(h, 'output.dense') + x, W[p+'output.LayerNorm.weight'], W[p+'output.LayerNorm.bias'])
    e = x.mean(0); e /= np.linalg.norm(e)
    out.append({'text': t, 'ids': enc.ids, 'tokens': enc.tokens, 'vector': [float('%.7g' % z) for z in e]})
src = 'numpy float64 reference of sentence-transformers all-MiniLM-L6-v2 (mean pooling, normalize), tokenizers ' + __import__('tokenizers').__version__
print(json.dumps({'source': src, 'cases': out}, ensure_ascii=False, separators=(',', ':')).replace('{"text"', '\n{"text"'))
