// strings/ko/setup.js — the playground's Korean strings for the page's frame (title, menu, status),
// the training bar and timeline, the kept runs and the set-up column (tasks, options and their
// values, presets).
// One `key = text` a line; {name} is filled in where the string is shown. strings/en/setup.js
// has the same keys with the same placeholders (wasm_tests/playground_strings.test.mjs).
import { table } from '../table.js';

export default table(`
app.title = 트랜스포머 플레이그라운드
app.tagline = 이 탭에서 작은 트랜스포머를 학습시키고, 모든 행렬이 바뀌는 모습을 지켜보세요.
app.share = 링크 복사
app.shared = 링크를 복사했습니다. 이 설정이 그대로 재현됩니다.
app.langButton = English
app.langHint = 페이지를 영어로 바꿉니다
app.linkProblems = 이 링크의 일부를 이해하지 못해 빼고 열었습니다: {list}.
nav.skip = 패널로 건너뛰기
nav.sections = 섹션
nav.training = 학습
nav.tokens = 토큰
nav.embeddings = 임베딩
nav.attention = 어텐션
nav.walkthrough = 단계별 계산
nav.outputs = 출력
nav.files = 모델 파일
nav.about = 정보

status.loading = WebAssembly 모듈을 불러오는 중…
status.building = 모델을 만드는 중…
status.ready = 준비됨: 학습을 누르세요
status.training = 학습 중…
status.paused = 일시 정지
status.offscreen = 화면 밖에 있어 일시 정지했습니다. 다시 보이면 이어서 학습합니다
status.finished = 완료
status.error = 오류: {message}
status.failed = 멈춤: 아래 메시지를 보세요
status.loaded = {name}에서 모델을 불러왔습니다

train.region = 학습 조작
train.start = 학습
train.pause = 일시 정지
train.step = 한 단계
train.reset = 초기화
train.startAria = 학습 시작
train.pauseAria = 학습 일시 정지
train.stepAria = 한 단계 학습
train.resetAria = 모델을 처음 가중치로 초기화
train.loss = 손실
train.valLoss = 검증 손실
train.metric = 지표
train.tokensPerSec = 토큰/초
train.lr = 학습률
train.gradNorm = 기울기 노름
train.threads = 스레드
threads.many = 스레드 {n}개: 이 페이지는 교차 출처 격리(cross-origin isolated) 상태라 학습에 모든 코어(여기서는 {cores}개)를 쓰며, 결과는 스레드 하나일 때와 비트 단위까지 같습니다.
threads.failed = 스레드 1개: 이 페이지에서는 스레드용 모듈을 시작할 수 없었습니다 ({why}).
threads.notIsolated = 스레드 1개: 이 페이지는 교차 출처 격리(cross-origin isolated) 상태가 아닙니다.
threads.noSharedMemory = 스레드 1개: 이 브라우저에는 SharedArrayBuffer가 없습니다.
threads.oneCore = 스레드 1개: 이 기기의 코어가 하나입니다.
threads.isolate = 모든 코어 쓰기 (페이지를 한 번 새로 고침)
threads.isolateFailed = 여기서는 이 페이지를 격리할 수 없습니다 ({why}).
train.stepOf = {step} / {total} 단계
runs.keep = 이 실행 보관
runs.kept = 보관됨
runs.forget = 보관한 실행 지우기
runs.list = 보관한 실행
runs.forgetOne = 실행 {name} 지우기
runs.open = 설정
runs.openAria = 실행 {name}의 설정으로 돌아가기
runs.at = {step}단계, 손실 {loss}
runs.same = 실행 {n}
runs.seed = 시드 {seed}
runs.data = 데이터 {data}
runs.elsewhere = 보관한 실행
runs.notHere = 이 브라우저에서 학습하지 않음: 설정하고 학습하세요
time.label = 모든 보기에 표시할 학습 단계
time.play = 학습 기록 다시 보기
time.stop = 다시 보기 멈춤
time.speed = 속도
time.every = 초당 {n}단계: 모든 단계 표시
time.pace = 초당 {n}단계
time.max = 최대한 빠르게
time.now = {step}단계: 현재 ({n}개 기록)
time.at = {step} / {last}단계 ({n}개 기록)

setup.invalidInt = 적용 안 됨: {min}부터 {max}까지의 정수여야 합니다. 고칠 때까지 학습할 수 없습니다.
setup.invalidReal = 적용 안 됨: {min}부터 {max}까지의 수여야 합니다. 고칠 때까지 학습할 수 없습니다.
setup.title = 과제와 구조
setup.task = 과제
setup.yourText = 내 텍스트 (언어 모델이 이어 쓰기를 배웁니다)
setup.yourPairs = 내 문장 쌍, 한 줄에 하나씩: 입력 => 출력
setup.pairsHint = 문장 쌍에서 문자 토크나이저를 만들고, 열 번째 쌍마다 검증용으로 떼어 둡니다.
setup.tokenizer = 토크나이저
setup.apply = 이 데이터 사용
setup.dataLimit = 최대 {limit}자. 링크에는 약 {link}자까지만 데이터가 담기고, 그보다 긴 데이터는 이 탭에만 남습니다.
setup.tooMuch = 데이터가 {n}자입니다. 플레이그라운드는 최대 {limit}자로 학습합니다. 줄여 주세요(텍스트 일부로도 충분히 배웁니다). 사용 중인 데이터는 바뀌지 않았습니다.
setup.presets = 프리셋
setup.architecture = 구조
setup.training = 학습
setup.resetAll = 모두 초기화
setup.reset = {name}을(를) 기본값으로
setup.default = 기본값: {value}
setup.seed = 시드
setup.summary = {arch} · 파라미터 {params}개 · 단어장 {vocab} · d_k = {dk}
setup.fixed = 단어장 {vocab}{classes} (과제가 정함)
setup.classes =  · 클래스 {n}개
setup.notFor = 이 과제에는 쓸 수 없음: {why}
setup.needsSeq = 시퀀스 과제에는 디코더가 필요합니다
setup.needsEnc = 분류와 태깅에는 인코더 전용 모델이 필요합니다
setup.needsNoEncDec = 언어 모델은 텍스트 하나뿐이라 입력 문장이 없습니다
setup.ropeOdd = RoPE는 헤드 크기가 짝수여야 합니다. d_model / 헤드 수 = {dh}

taskdesc.qa-toy = 원문 글의 모델 그대로입니다: 단어장 11개, d_model = 6, 헤드 2개, 사인파 위치 인코딩, post-norm, ReLU. 몇백 단계면 두 답을 외웁니다.
taskdesc.copy = 인코더-디코더. 디코더가 크로스 어텐션으로 입력을 복사하는 법을 배웁니다 (대각선이 나타나는 것을 보세요).
taskdesc.reverse = 인코더-디코더. 크로스 어텐션이 반대 대각선을 배웁니다.
taskdesc.sort = 인코더-디코더. 더 어렵습니다: 출력 기호마다 다음으로 작은 입력을 찾아야 합니다.
taskdesc.addition = 123+45 → 168 같은 여러 자리 덧셈을 문자 단위로.
taskdesc.translate = 이 제품을 위해 쓴 영어 → 한국어 구절 328쌍, 문자 단위.
taskdesc.lm-char = 퍼블릭 도메인 텍스트로 다음 문자를 예측하는 디코더 전용 모델.
taskdesc.lm-bpe = 512개 토큰의 BPE 단어장으로 다음 토큰을 예측하는 디코더 전용 모델.
taskdesc.sentiment = 토큰 평균으로 문장을 분류하는 인코더 전용 모델.
taskdesc.tagging = 인코더 전용: 토큰마다 태그(O, PER, LOC, TIME) 하나.
taskdesc.text = 붙여 넣은 텍스트로 학습하는 디코더 전용 언어 모델.
taskdesc.pairs = 붙여 넣은 (입력, 출력) 쌍으로 학습하는 인코더-디코더.

preset.seed = 원문 예제
preset.gpt = GPT 스타일
preset.bert = BERT 스타일
preset.t5 = ALiBi 인코더-디코더
preset.modern = 최신: pre-RMSNorm + RoPE + GQA + SwiGLU
preset.seed.hint = 인코더-디코더, d_model 6, post-LayerNorm, ReLU
preset.gpt.hint = 디코더 전용, 학습되는 위치, pre-LayerNorm, GELU, 임베딩 공유
preset.bert.hint = 인코더 전용, 학습되는 위치, post-LayerNorm, GELU
preset.t5.hint = T5의 구조(인코더-디코더, pre-RMSNorm, ReLU, 편향 없음)에 T5의 구간별 상대 편향 대신 ALiBi 거리 벌점
preset.modern.hint = RoPE, 부층 앞의 RMSNorm, K/V 헤드 공유, SwiGLU

field.arch = 구조
field.dModel = 모델 너비
field.nHeads = 헤드 수
field.nKvHeads = K/V 헤드 수
field.nLayers = 층 수
field.dFF = 피드포워드 너비
field.maxLen = 최대 길이
field.pos = 위치 정보
field.norm = 정규화
field.normPlacement = 정규화 위치
field.ffn = 피드포워드
field.window = 슬라이딩 윈도
field.globalTokens = 전역 토큰
field.layerPattern = 지역/전역 층
field.dropout = 드롭아웃
field.tieEmbeddings = 임베딩 공유
field.bias = 편향
field.head = 출력 헤드
field.lr = 학습률
field.batchSize = 배치 크기
field.totalSteps = 단계 수
field.warmup = 워밍업 단계
field.schedule = 스케줄
field.labelSmoothing = 레이블 스무딩
field.weightDecay = 가중치 감쇠
field.clip = 기울기 클리핑
field.seqLen = 학습 창 길이(텍스트 과제)
field.temperature = 온도
field.beam = 빔 너비
field.maxNewTokens = 최대 새 토큰
field.kvCache = KV 캐시
value.encoder-decoder = 인코더-디코더
value.encoder-only = 인코더 전용
value.decoder-only = 디코더 전용
value.sinusoidal = 사인파
value.learned = 학습됨
value.alibi = ALiBi (상대 편향)
value.none = 없음
value.lm = 언어 모델
value.mlm = 가려진 토큰
value.cls = <CLS>로 분류
value.mean = 평균으로 분류
value.token = 토큰별 태그
value.constant = 고정
value.cosine = 워밍업 + 코사인
value.char = 문자
value.word = 단어
value.bpe = 서브워드 (BPE)
value.byte = 바이트
value.gpt2 = GPT-2 바이트 수준 BPE
value.true = 켬
value.false = 끔

training.lead = 학습 배치의 교차 엔트로피 손실(매 단계)과 검증 예제의 손실(점). 학습은 웹 워커에서 돌아가므로 페이지가 멈추지 않습니다.
training.train = 학습
training.smoothed = 학습 (평활)
training.val = 검증
training.step = 단계
training.metricTitle = 검증 세트의 {metric}
training.note = {task}: {steps}단계, 배치 {batch}, 학습률 {lr} ({schedule}).
training.diverged = 학습이 {step}단계에서 발산했습니다: 손실이 무한대가 되었거나 출력을 고르게 찍는 것보다 훨씬 커졌습니다. 학습률(지금 {lr})을 낮추거나 워밍업 단계(지금 {warmup})를 늘린 뒤 초기화하세요.
`, 'strings/ko/setup.js');
