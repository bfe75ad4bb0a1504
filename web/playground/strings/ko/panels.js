// strings/ko/panels.js — the playground's Korean strings for the panels: outputs, attention, tokens,
// embeddings and RoPE, the walk-through, model files and imports, about.
// One `key = text` a line; {name} is filled in where the string is shown. strings/en/panels.js
// has the same keys with the same placeholders (wasm_tests/playground_strings.test.mjs).
import { table } from '../table.js';

export default table(`
tokens.lead = 텍스트를 토큰으로 나누고, 토큰마다 단어장의 번호(id)를 붙입니다. 토큰에 마우스를 올리면 다른 모든 그림에서 같은 토큰이 강조됩니다.
tokens.input = 입력 텍스트 (토큰, 임베딩, 어텐션 그림에 쓰입니다)
tokens.kind = 토크나이저
tokens.model = 이 모델의 것
tokens.note.model = 모델 자신의 {kind} 토크나이저 (토큰 {vocab}개).{extra}
tokens.note.cls =  분류기는 <CLS>를 먼저 읽습니다.
tokens.note.char = 문자: 텍스트에 나오는 서로 다른 문자 전부가 단어장입니다.
tokens.note.word = 단어와 문장 부호: 시퀀스는 짧지만 단어장이 크고, 모르는 단어는 <UNK>가 됩니다.
tokens.note.bpe = 악마의 사전에서 바이트 쌍 인코딩으로 배운 서브워드(512개). ##은 단어를 이어 가는 조각입니다. 본 적 없는 텍스트(한국어 등)는 바이트로 나뉩니다.
tokens.note.byte = 바이트(ByT5 방식): 256개 id로 어떤 텍스트든 표현합니다. 한글 한 음절은 3바이트입니다.
tokens.compareKind = 토크나이저
tokens.compareCount = 토큰 수
tokens.compareVocab = 단어장
tokens.compareTokens = 조각
tokens.korean = 한국어 예문
tokens.vocabFromText = 이 텍스트에서

emb.title = 임베딩과 위치
emb.lead = id마다 임베딩 표의 한 행(학습되는 d_model 길이의 벡터)을 고르고, 위치마다 그 위치의 벡터를 더합니다. 그 합이 첫 층에 들어갑니다.
emb.leadInside = id마다 임베딩 표의 한 행(학습되는 d_model 길이의 벡터)을 고르고, 그 행이 그대로 첫 층에 들어갑니다. 이 모델은 위치 벡터를 더하지 않습니다. 위치 정보인 {pos}는 어텐션 안에서 작동합니다.
emb.leadNone = id마다 임베딩 표의 한 행(학습되는 d_model 길이의 벡터)을 고르고, 그 행이 그대로 첫 층에 들어갑니다. 이 모델에는 위치 정보가 없습니다.
emb.tokens = 토큰 임베딩 E[id]
emb.positions = 위치 벡터 P[pos]
emb.sum = 합: X = E[id] + P[pos]
emb.positionsNone = 위치 벡터: 더하지 않음 ({pos})
emb.sumNone = 첫 층에 들어가는 값: X = E[id]
emb.peTraced = 테두리 친 0–{last}행이 위에서 이 입력이 받은 위치 벡터입니다.
emb.dim = 차원
emb.position = 위치
emb.peTitle = 위치 정보
emb.pe.sinusoidal = 사인파 위치 인코딩, 위치 0–{n}
emb.pe.learned = 학습된 위치 표, 위치 0–{n}
emb.pe.rope = RoPE: 더하는 위치 벡터가 없습니다
emb.pe.alibi = ALiBi: 어텐션 점수에 더하는 거리 벌점 (헤드 {h}, 기울기 {slope})
emb.pe.none = 위치 정보 없음
emb.peNote.sinusoidal = PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(…): 왼쪽 열은 빠른 물결, 오른쪽 열은 느린 물결이라 위치마다 서로 다른 무늬가 생깁니다.
emb.peNote.learned = 모델이 배운 위치 표(위치마다 학습되는 행 하나)를 워커에서 실시간으로 읽었습니다.
emb.peNote.rope = RoPE는 대신 어텐션 안에서 Q와 K를 회전시킵니다(아래 참고). V는 회전하지 않습니다.
emb.peNote.alibi = 편향 −m·|t−u|를 Q·Kᵀ/√d_k에 더하므로 먼 토큰일수록 덜 주목합니다. 헤드마다 기울기가 다릅니다.
emb.peNote.none = 위치 정보가 없으면 어텐션은 순서를 모릅니다: "the dog bites the man"과 "the man bites the dog"가 똑같아 보입니다.
emb.onehotTitle = 원-핫 대 밀집 벡터
emb.onehotNote = 원-핫 벡터는 단어장 크기({vocab})만큼 길고 1이 하나뿐이라 모든 토큰이 똑같이 떨어져 있습니다(코사인 0). 학습된 밀집 벡터는 d_model = {d}만큼만 길고, 코사인 유사도로 두 토큰이 닮았다고 말할 수 있습니다.
emb.onehot = 원-핫 벡터 (길이 {vocab})
emb.onehotUsed = 원-핫 벡터 (길이 {vocab} 중 입력의 id {used}개 열)
emb.cosine = 밀집 임베딩의 코사인 유사도
emb.cosineVocab = 모든 토큰의 밀집 임베딩 코사인 유사도 (입력 토큰은 테두리)
rope.title = RoPE: 회전과 상대 거리
rope.note.on = 첫 토큰의 쿼리(헤드 0)를 쌍마다 pos·θᵢ만큼 회전합니다. 점수 q(m)·k(n)는 m − n에만 달려 있어서, m이 달라도 곡선이 겹칩니다.
rope.note.off = 이 모델은 RoPE를 쓰지 않습니다({pos}). 첫 토큰의 쿼리(헤드 0)에 RoPE를 적용하면 이렇게 됩니다. 위치 정보를 RoPE로 바꾸면 RoPE로 학습합니다.
rope.note.odd = RoPE는 차원을 쌍으로 회전하므로 헤드 크기가 짝수여야 합니다. 이 모델의 헤드 크기는 {dh}(d_model {d} / 헤드 {h}개)라 RoPE를 쓸 수 없습니다. 첫 토큰의 쿼리(헤드 0) 중 앞의 {even}개 차원에 RoPE를 적용하면 이렇게 됩니다.
rope.distance = 거리 m − n에 따른 점수
rope.scores = score(m, n) = rot(q, m) · rot(k, n) / √d_k: 대각선마다 값이 같습니다
rope.plot = q의 쌍별 회전

attn.compare = 옆에 보관한 실행
attn.compareGrid = {step}단계의 {run}
attn.compareNote = 보관한 실행 "{run}"의 같은 헤드, {step}단계 (이 실행: {here}단계).
attn.compareNone = 그 실행에는 {kind} 어텐션이 없습니다.
attn.title = 어텐션
attn.lead = 모든 층의 모든 헤드가 각 토큰(행)이 다른 토큰(열)에서 얼마나 가져올지 정합니다. 행의 합은 1입니다. 빗금 칸은 마스크된 칸입니다(softmax 전 −∞, 후 정확히 0).
attn.stage = 보기
attn.layerPick = 층
attn.headPick = 헤드
attn.gridWindow = 모델 보기: 전체 {layers}개 층 중 {first}–{last}층 × 헤드 (층을 고르면 창이 옮겨 갑니다)
attn.grid = 모델 보기: 층 × 헤드
attn.main = 층 {layer}, 헤드 {head}: {kind}
attn.headView = 헤드 보기: 층 {layer}

attn.note = 입력: "{input}"{answer}. {step}단계. 작은 그림을 누르거나 화살표 키로 헤드를 고르세요.
attn.noteAnswer =  → 답 "{answer}"
attn.changed = {from}단계에서 {to}단계까지 가장 많이 바뀐 곳: {kind}, 층 {layer}, 헤드 {head} (행마다 가중치가 평균 1 중 {tv}만큼 옮겨 갔습니다).
attn.changedShow = 보기
attn.changedHere = 보는 중
attn.shortened =  기록에는 {of}개 토큰 중 앞의 {tokens}개만 남습니다: 스냅숏 하나는 최대 {mb} MB까지입니다.
attn.mask = 이 층의 마스크 (<PAD> 두 개를 붙여서)
attn.maskNote = {rules}. 빗금 = −∞ (절대 주목하지 않음).
attn.rule.causal = 인과 마스크 (앞을 보지 않음)
attn.rule.window = 슬라이딩 윈도 w = {w}
attn.rule.global = 전역 토큰 {n}개
attn.rule.pad = <PAD> 키 무시
attn.rule.full = 전체 어텐션

wt.title = 단계별 계산: 순전파 한 번, 한 단계씩
wt.lead = 임베딩부터 고른 토큰까지의 계산을 모델의 실제 숫자로 보여 줍니다. 원문의 모델에는 원문 글의 28단계("how are you" → "i am fine", 단어장 11, d_model = 6, 헤드 2개)를, 다른 모델에는 그 구성이 뜻하는 단계를 과제의 첫 예시(가져온 모델은 프롬프트와 생성한 내용)로, 고른 층·헤드·토큰에서 보여 주며, 식마다 초점 칸의 숫자를 함께 씁니다.
wt.source = 가중치
wt.source.fresh = 원문 예제, 새로 초기화 (시드 {seed})
wt.source.live = 여기서 학습 중인 모델 ({step}단계)
wt.note.fresh = 원문처럼 무작위 가중치입니다: 학습 전에는 어텐션 행이 거의 고릅니다.
wt.note.live = 학습 워커에 있는 모델의 가중치를 {step}단계에서 읽었습니다.
wt.note.unavailable = 여기서 학습하는 모델은 설정이 받아들여지면 보입니다.
wt.note.waiting = 이 모델의 단계별 계산은 이 패널이 화면에 나온 뒤의 첫 스냅숏부터 기록됩니다. 한 단계를 진행하거나 학습하면 보입니다.
wt.note.prompt = {name} (가져옴), 프롬프트 "{text}"에서: 생성하면 모델이 쓰는 토큰을 따라갈 수 있습니다.
wt.note.generated = {name} (가져옴), 생성한 내용 "{text}"에서: {from}번 위치부터는 토큰을 하나씩 생성했고, 앞 위치의 키와 값은 KV 캐시에서 읽었습니다. 토큰에서 하나를 고르세요.
wt.pick = 보여 줄 층, 헤드, 토큰
wt.layerPick = 층
wt.headPick = 헤드
wt.tokenPick = 토큰

out.atStep = {step}단계에서 "{input}" 다음으로 모델이 예상하는 토큰: {guesses}.
out.atStepAnswer = {step}단계에서 모델은 "{input}"에 "{answer}"라고 답합니다. 첫 토큰 후보: {guesses}.
out.now = 지금({step}단계) "{input}" 다음으로 모델이 예상하는 토큰: {guesses}.
out.nowAnswer = 지금({step}단계) 모델은 "{input}"에 "{answer}"라고 답합니다. 첫 토큰 후보: {guesses}.
out.answeredAt = 타임라인이 보여 주는 {step}단계의 모델이 답했습니다
out.answeredNow = 지금({step}단계)의 모델이 답했습니다
out.title = 출력
out.lead = 한 번에 한 토큰씩 생성합니다. 단계마다 가장 그럴듯한 다음 토큰들을 보여 줍니다. 온도, top-k, top-p는 토큰을 뽑기 전에 분포를 바꾸고, 빔 탐색은 후보 여러 개를 유지합니다.
out.prompt = 프롬프트
out.invalidInt = 적용 안 됨: {min}부터 {max}까지의 정수여야 합니다.
out.invalidReal = 적용 안 됨: {range} 수여야 합니다.
out.generate = 생성
out.predict = 예측
out.output = 출력
out.steps = 생성된 토큰
out.step = {i}단계:
out.meta = 토큰 {n}개 · 토큰당 {ms} ms · KV 캐시 {cache} · 멈춘 이유: {reason}
out.reason.max_new_tokens = 최대 새 토큰
out.reason.max_len = 최대 길이
out.kvCompare = KV 캐시 측정
out.kvResult = KV 캐시 사용 시 토큰당 {on} ms, 미사용 시 {off} ms ({x}배 빠름). 출력은 {same}.
out.same = 같습니다
out.differ = 다릅니다
out.kvTitle = KV 캐시에 담긴 것
out.kvLead = 새 토큰마다 앞선 모든 위치의 키와 값이 필요합니다. 캐시는 그것을 보관합니다: 층마다 위치 하나에 K 한 행, V 한 행씩, 답이 길어지는 대로 더해지므로 한 번씩만 계산합니다. 윈도 층은 마지막 행들만 두는 링 버퍼로, 다음 행이 가장 오래된 칸을 덮어씁니다.
out.kvShort = 토큰 몇 개로는 캐시의 효과가 드러나지 않습니다. 긴 답으로 측정하세요. 예: 사전 학습된 문자 모델(파일)로 새 토큰 60개 이상.
out.kvLabel = 위치 {n}개 뒤의 KV 캐시
out.classes = 클래스 확률
out.tags = 토큰별 태그
out.stepBars = {i}단계: 상위 후보
out.previewBars = 프롬프트 다음 토큰: 온도 {t}, top-k {k}, top-p {p}로 뽑을 확률 (막대; 선: 모델)
out.predicted = 예측: {label}

files.title = 모델 파일
files.lead = 모델(가중치, 설정, 토크나이저)을 safetensors 파일로 저장하거나, 여기·명령줄 도구·PyTorch에서 저장한 파일을 불러옵니다. 전체 설정은 페이지 주소에도 들어 있으니 링크를 복사해 공유하세요.
files.pretrained = 미리 학습된 모델
files.pretrainedHint = 플레이그라운드에 들어 있는 체크포인트(web/models)로, 명령줄 도구로 학습했습니다. 불러오면 학습된 어텐션을 바로 볼 수 있습니다.
files.save = 모델 저장
files.load = 모델 불러오기…
files.copyLink = 이 설정의 링크 복사
files.saved = {name} 저장 ({size} kB).
files.loadedInfo = {name} 불러옴: 과제 {task}, 파라미터 {params}개.
files.runs = 학습 기록 파일
files.runsHint = 학습 하나의 기록 전체(곡선과 보기가 보여 주는 모든 스냅숏)를 보관한 학습과 함께 .tphistory 파일 하나에 담습니다. 문서 페이지의 <tp-replay> 요소가 학습 없이 다시 보여 주고, 학습 기록 열기는 그 학습들을 여기로 보관한 학습으로 되돌려 놓습니다.
files.saveRun = 학습 기록 저장
files.openRun = 학습 기록 열기…
files.runSaved = {name} 저장: 학습 {runs}개, {size} kB.
files.runOpened = {name} 열기: 학습 {runs}개를 보관했습니다(학습 차트와 어텐션 비교에 나옵니다).
files.runNone = 먼저 학습하세요: 저장할 학습 기록이 아직 없습니다.
files.runNoSetup = {name}: 학습 "{label}"은(는) 내장 과제를 가리키지 않아 플레이그라운드에 보관할 수 없습니다.
import.title = 모델 불러오기
import.hint = 직접 가진 모델: GPT-2 또는 Llama 계열의 Hugging Face 형식 폴더(config.json, model.safetensors, tokenizer.json 또는 vocab.json + merges.txt)나 llama2.c의 모델 .bin과 tokenizer.bin. 가중치 1 GB(GPT-2 small)까지 불러와 생성할 수 있고, 파라미터 6700만 개까지는 과제의 텍스트로 여기서 미세 조정도 할 수 있습니다.
import.files = 모델 파일…
import.folder = 모델 폴더…
import.url = 또는 URL
import.urlGo = 불러오기
import.reading = {name} 읽는 중…
import.loading = 불러오는 중…
import.loaded = {name} 불러옴.
import.summary = 파라미터 {params}개(가중치 {mb} MB): {layers}층 × 헤드 {heads}개, 너비 {d}, 토큰 {vocab}개.
import.trainable = 여기서 텍스트로 미세 조정할 수 있습니다.
import.notTrainable = 미세 조정에는 {mb} MB(가중치, 기울기, Adam 상태)가 필요해 이 페이지의 한도 {limit} MB를 넘습니다. 생성과 모든 보기는 됩니다.
import.notTrainableHere = 과제 아래의 학습 옵션으로는 미세 조정이 메모리에 맞지 않습니다. 이유는 학습 막대에 있습니다.
import.left = 기본 모델로 돌아왔습니다(과제나 구조를 바꾸어 불러온 모델은 내려 두었습니다).
files.needText = 직접 넣은 데이터로 학습한 모델입니다. 먼저 과제에 그 데이터를 붙여 넣으세요.

about.title = 정보와 진단
about.lead = C++ 트랜스포머가 128비트 SIMD를 쓰는 WebAssembly로 돌아갑니다. 이 검사는 브라우저에서 커널을 스칼라 기준 구현과 비교합니다.
about.browsers = 브라우저
about.browsersHint = 플레이그라운드가 돌아가는 브라우저별 가장 오래된 버전과, 그 버전을 정하는 기능입니다(MDN 호환성 자료). 각 표의 마지막 줄입니다.
about.browsersCaption = 플레이그라운드가 쓰는 기능과, 브라우저마다 그 기능이 들어온 버전
about.feature = 기능
about.minimum = 최소 버전
about.apiOnly = 뷰 없이 JavaScript API(web/lib)만 쓰면 Chrome과 Edge {chrome}, Firefox {firefox}, Safari {safari}부터 돌아갑니다.
about.threadsCaption = 멀티스레드 학습에는 이것들과 함께, 교차 출처 격리된 페이지(COOP와 COEP 헤더로 제공되거나 학습 패널의 버튼으로 격리된 페이지)가 필요합니다
about.threadsMinimum = 스레드 최소 버전
about.feature.wasmSimd = WebAssembly SIMD(128비트)
about.feature.moduleWorker = 모듈 워커(페이지 스레드 밖에서 학습)
about.feature.privateMethods = 비공개 클래스 메서드
about.feature.finalizationRegistry = FinalizationRegistry(잊힌 핸들 해제)
about.feature.containerQueries = CSS 컨테이너 쿼리(레이아웃)
about.feature.mathml = MathML(단계별 설명의 수식)
about.feature.constructableSheets = 구성 가능한 스타일시트(adoptedStyleSheets)
about.feature.crossOriginIsolated = 교차 출처 격리(SharedArrayBuffer)
about.feature.wasmThreads = WebAssembly 스레드와 원자적 연산
about.isolation = 서비스 워커로 격리됨
about.isolationNote = 학습에 모든 코어를 쓰도록 이 페이지는 서비스 워커(“모든 코어 쓰기” 버튼)로 교차 출처 격리되어 있습니다. 서비스 워커는 이 페이지와 그 학습 워커에만 등록되어 있습니다({scope}). 되돌리면 호스트가 보내는 그대로 다시 제공됩니다.
about.unisolate = 이 페이지 격리 해제 (새로 고침)
about.colors = 색 지도: 낮은 값에서 높은 값으로 진한 파랑 → 노랑, 부호가 있는 값은 파랑 ← 흰색 → 주황. 둘 다 지각적으로 균일하고 흔한 색각 이상 모두에서 읽힙니다. 역할 색: Q 파랑, K 주홍, V 초록, 출력 보라.
`, 'strings/ko/panels.js');
