/** The organizer's social profiles, listed by SocialLinks in the header menu, the footer and the landing page. */
export const ORGANIZER_SOCIAL_LINKS = [
  {
    network: 'instagram',
    label: 'Instagram',
    handle: '@schlosstreffen',
    href: 'https://www.instagram.com/schlosstreffen/',
  },
  {
    network: 'facebook',
    label: 'Facebook',
    handle: 'Schlosstreffen',
    href: 'https://www.facebook.com/schlosstreffen',
  },
] as const;

export type SocialNetwork = (typeof ORGANIZER_SOCIAL_LINKS)[number]['network'];
