// run-file-words.js — what is wrong with a run file (.tphistory), in the reader's language: the
// playground's "Open run file" and <tp-replay> say it alike, from web/ui/strings.js's
// `runfile.*` texts. The file's own name for a field stays as the file spells it; the problem
// (history-file.js's words for what the field must be) is kept as the reader's detail.
import { HistoryFileError, HISTORY_LIMITS } from '../../lib/history-file.js';

/** An Error to show for `error` (thrown by readHistory()), translated by `t`; others pass through. */
export function runFileError(t, error) {
  if (!(error instanceof HistoryFileError)) return error;
  const vars = { name: error.file, field: error.field, problem: error.problem };
  return new Error(t(error.field ? 'runfile.unreadable' : 'runfile.unreadableFile', vars), { cause: error });
}

/** The Error for a file of `size` bytes over the run-file limit, or null when it fits. */
export function runFileTooLarge(t, name, size) {
  const limit = HISTORY_LIMITS.bytes;
  return size > limit ? new Error(t('runfile.tooLarge', { name, mb: limit / 2 ** 20 })) : null;
}
