import type { ServerMessage } from '@schlosstreffen/shared/api';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  ChangePasswordBody,
  ForgotPasswordInput,
  LoginInput,
  ProfileInput,
  RegisterBody,
  ResetPasswordBody,
} from '@schlosstreffen/shared';
import { api } from '../../lib/api';
import type { CurrentUser, LoginAnswer, SecondFactorChallenge } from '@schlosstreffen/shared/api';
import { currentUserQueryOptions } from '../../lib/current-user';

/**
 * After register, login and a profile update the cached current user is refreshed.
 * The answer of the call is cached at once, then the user is read again from the server so that every
 * reader (header, route guards) sees the signed-in state before the next navigation.
 */
export async function refreshCurrentUser(queryClient: QueryClient, user?: CurrentUser): Promise<void> {
  if (user) queryClient.setQueryData(currentUserQueryOptions.queryKey, user);
  await queryClient.fetchQuery({ ...currentUserQueryOptions, staleTime: 0 });
}

/** POST /api/auth/register; establishes the session. */
export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RegisterBody) => api.post<CurrentUser>('/api/auth/register', body),
    onSuccess: (user) => refreshCurrentUser(queryClient, user),
  });
}

/** Whether the login's answer asks for the second factor (staff) rather than naming the signed-in user. */
export const isSecondFactorChallenge = (answer: LoginAnswer): answer is SecondFactorChallenge =>
  'secondFactor' in answer;

/**
 * POST /api/auth/login; establishes the session. A staff account's sign-in may wait for its second
 * factor: then the answer says which step, and the user stays signed out until it is done.
 */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginInput) => api.post<LoginAnswer>('/api/auth/login', body),
    onSuccess: (answer) =>
      isSecondFactorChallenge(answer) ? undefined : refreshCurrentUser(queryClient, answer),
  });
}

/** POST /api/auth/forgot-password; always answers with the same wording. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: ForgotPasswordInput) => api.post<ServerMessage>('/api/auth/forgot-password', body),
  });
}

/** POST /api/auth/reset-password with the token from the mail link. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordBody) => api.post<ServerMessage>('/api/auth/reset-password', body),
  });
}

/** PATCH /api/auth/profile; the answer is the updated user. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileInput) => api.patch<CurrentUser>('/api/auth/profile', body),
    onSuccess: (user) => refreshCurrentUser(queryClient, user),
  });
}

/**
 * POST /api/auth/confirm-email with the token from the link sent to the new address; the new address
 * then is the account's email, so the current user is read again.
 */
export function useConfirmEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.post<ServerMessage>('/api/auth/confirm-email', { token }),
    onSuccess: () => refreshCurrentUser(queryClient),
  });
}

/** POST /api/auth/change-password; the server ends the user's other sessions. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => api.post<ServerMessage>('/api/auth/change-password', body),
  });
}
