import { forwardRef, type ButtonHTMLAttributes } from 'react';

type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

const VARIANTS: Record<ButtonVariant, string> = {
  primary:
    'bg-gold-500 text-night-950 hover:bg-gold-400 disabled:bg-gold-700 disabled:text-night-800 shadow-lg shadow-gold-500/10',
  secondary: 'border border-gold-500/40 text-gold-200 hover:border-gold-400 hover:bg-gold-500/10',
  ghost: 'text-ash-300 hover:bg-white/5 hover:text-parchment',
  danger: 'bg-red-600 text-white hover:bg-red-500 disabled:bg-red-900',
};

/** Class names of a button, for links styled as buttons. */
export function buttonClass(variant: ButtonVariant = 'primary', extra = ''): string {
  return `inline-flex items-center justify-center gap-2 rounded-full px-5 py-2.5 text-sm font-semibold tracking-wide transition-colors disabled:cursor-not-allowed ${VARIANTS[variant]} ${extra}`;
}

export const Button = forwardRef<
  HTMLButtonElement,
  ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }
>(function Button({ variant = 'primary', className = '', type = 'button', ...props }, ref) {
  return <button ref={ref} type={type} className={buttonClass(variant, className)} {...props} />;
});
