/**
 * The action ids of the bot's buttons. The listener matches them with one pattern; the value of each button is the
 * id of the job it answers.
 */
export const ANSWER_YES = 'qa_answer_yes';
export const ANSWER_NO = 'qa_answer_no';
export const ANSWER_ACTION = /^qa_answer_(yes|no)$/;
