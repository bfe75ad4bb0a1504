// strings/common.js — what the playground writes the same in every language: the names of
// techniques, formats and browsers, and the few strings that are only punctuation around their
// placeholders. t() falls back to this table after the page's language and English.
import { table } from './table.js';

export default table(`
field.topK = top-k
field.topP = top-p
value.rope = RoPE
value.layer = LayerNorm
value.rms = RMSNorm
value.post = post-norm (2017)
value.pre = pre-norm
value.relu = ReLU
value.gelu = GELU
value.swiglu = SwiGLU
value.noam = Noam (2017)
value.sentencepiece = SentencePiece BPE
out.reason.eos = <EOS>
import.failed = {name}: {message}
training.subject = {task} · {run}
files.error = {message}
about.browser.chrome = Chrome
about.browser.edge = Edge
about.browser.firefox = Firefox
about.browser.safari = Safari
about.feature.arrayAt = Array.prototype.at
about.feature.has = CSS :has()
about.feature.colorMix = CSS color-mix()
`, 'strings/common.js');
