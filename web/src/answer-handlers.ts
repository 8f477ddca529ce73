// What the buyer's clicks and typing do to the configurator's answers: the question
// views' handlers, over the answers the configurator keeps.
import type { Answers, DescribedModel, Line, LineOption, LineQuestion } from './api.js';
import { ruleMessage } from './full-line.js';
import type { Translate } from './i18n/index.js';
import type { QuestionHandlers } from './question-view.js';

/** The configurator's side of the handlers. */
export interface AnswerHost {
  answers(): Answers;
  /** Field texts as typed, by question key (shown while they are the answer). */
  typed(): Record<string, string>;
  line(): Line | undefined;
  /** The model's description: the messages of the rules the line does not list. */
  described(): DescribedModel | undefined;
  t(): Translate;
  /** Previews the answers: at once when `settled`, else after a pause in typing. */
  schedule(settled: boolean): void;
  /** An unavailable option picked: offer the nearest valid configuration that has it. */
  offer(question: LineQuestion, option: LineOption): void;
  /** An available option picked: any offer goes. */
  dismissOffer(): void;
}

/** The answers with an option picked (or a multi_choice option ticked on or off). */
export function pick(answers: Answers, question: LineQuestion, option: LineOption, on: boolean) {
  if (question.type !== 'multi_choice') {
    answers[question.key] = [option.key];
    return;
  }
  const current = new Set((answers[question.key] ?? question.values).map(String));
  if (on) current.add(option.key);
  else current.delete(option.key);
  answers[question.key] = [...current];
}

export function questionHandlers(host: AnswerHost): QuestionHandlers {
  return {
    choose: (question, option, on) => {
      if (!option.available) return host.offer(question, option);
      host.dismissOffer();
      pick(host.answers(), question, option, on);
      host.schedule(true);
    },
    set: (question, value, settled, typed) => {
      const answers = host.answers();
      if (value === undefined) delete answers[question.key];
      else answers[question.key] = [value];
      if (typed === undefined || value === undefined) delete host.typed()[question.key];
      else host.typed()[question.key] = typed;
      host.schedule(settled);
    },
    clear: (question) => {
      delete host.answers()[question.key];
      host.schedule(true);
    },
    ruleMessage: (key) => ruleMessage(host.line() ?? { rules: [] }, host.described(), key),
    questionLabel: (key) => host.line()?.questions.find((q) => q.key === key)?.label ?? key,
    answered: (key) => key in host.answers(),
    typed: (key) => (key in host.answers() ? host.typed()[key] : undefined),
    currency: () => host.line()?.pricing.currency ?? '',
    t: (key, params) => host.t()(key, params),
  };
}
