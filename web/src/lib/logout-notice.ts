/** Session storage key: the logout toast is shown again after the reload that follows a logout. */
export const LOGOUT_NOTICE_KEY = 'schlosstreffen:logged-out';
