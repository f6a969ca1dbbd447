import { Menu } from '@ark-ui/react/menu';
import { Link, useRouterState } from '@tanstack/react-router';
import { useId, useState, type ComponentPropsWithRef } from 'react';
import type { Role } from '@schlosstreffen/shared';
import { ChevronDownIcon } from '../../components/icons';
import { adminMenuFor, currentAdminEntry, QUEUES_PATH, type AdminMenuEntry } from './admin-menu';

/** A menu entry's link; `aria-current` marks the screen on show. Takes the props Ark's menu item hands it. */
function EntryLink({
  entry,
  current,
  ...props
}: { entry: AdminMenuEntry; current: boolean } & Omit<ComponentPropsWithRef<'a'>, 'href'>) {
  const shared = { ...props, 'aria-current': current ? ('page' as const) : undefined };
  // The queue dashboard is the API's page: a full page load, not a client route.
  if (entry.to === QUEUES_PATH) {
    return (
      <a {...shared} href={entry.to}>
        {entry.label}
      </a>
    );
  }
  return (
    <Link {...shared} to={entry.to}>
      {entry.label}
    </Link>
  );
}

const sidebarLinkClass =
  'block rounded-lg px-3 py-1.5 text-sm text-ash-300 transition-colors hover:bg-white/5 hover:text-parchment aria-[current=page]:bg-gold-500/15 aria-[current=page]:font-medium aria-[current=page]:text-gold-200';

const groupLabelClass = 'text-xs font-semibold tracking-[0.2em] text-gold-400 uppercase';

/**
 * The admin area's menu, in one `nav`: on wide screens a side column listing every group with its
 * screens; on narrow ones a button naming the current group and screen, whose menu lists them all.
 * Each role sees the screens it may open.
 */
export function AdminNav({ role }: { role: Role }) {
  const id = useId();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const groups = adminMenuFor(role);
  const current = currentAdminEntry(groups, pathname);
  const isCurrent = (entry: AdminMenuEntry) => entry === current?.entry;
  const groupLabel = current?.group.label ?? 'Adminbereich';
  const entryLabel = current?.entry.label ?? 'Übersicht';
  const [highlighted, setHighlighted] = useState<string | null>(null);

  return (
    <nav
      aria-label="Adminbereich"
      className="sticky top-16 z-20 -mx-4 bg-night-950/95 px-4 py-2 backdrop-blur sm:-mx-6 sm:px-6 md:top-20 lg:top-28 lg:mx-0 lg:max-h-[calc(100dvh-8rem)] lg:w-52 lg:shrink-0 lg:self-start lg:overflow-y-auto lg:bg-transparent lg:p-0 lg:backdrop-blur-none"
    >
      <div className="lg:hidden">
        <Menu.Root
          positioning={{ placement: 'bottom-start', sameWidth: true, gutter: 6 }}
          highlightedValue={highlighted}
          onHighlightChange={({ highlightedValue }) => setHighlighted(highlightedValue)}
          onOpenChange={({ open }) => {
            // Opened, the menu starts at the screen on show (after Ark's own first highlight).
            if (open && current) requestAnimationFrame(() => setHighlighted(current.entry.to));
          }}
        >
          {/* Named by what it shows, the current group and screen; `aria-haspopup` says it opens a menu. */}
          <Menu.Trigger className="flex w-full items-center justify-between gap-3 rounded-xl border border-white/10 bg-night-900 px-4 py-2.5 text-left transition-colors hover:border-white/20 data-[state=open]:border-gold-400">
            <span className="flex min-w-0 flex-col">
              <span className={groupLabelClass}>{groupLabel}</span>{' '}
              <span className="truncate font-medium text-parchment">{entryLabel}</span>
            </span>
            <Menu.Indicator className="shrink-0 text-gold-300 transition-transform data-[state=open]:rotate-180">
              <ChevronDownIcon className="size-5" />
            </Menu.Indicator>
          </Menu.Trigger>
          <Menu.Positioner className="z-30">
            <Menu.Content className="max-h-[70dvh] overflow-y-auto rounded-xl border border-white/10 bg-night-800 p-1 shadow-2xl shadow-black/60 focus:outline-none">
              {groups.map((group) => (
                <Menu.ItemGroup key={group.label} className="pb-1">
                  <Menu.ItemGroupLabel className={`px-3 pt-3 pb-1 ${groupLabelClass}`}>
                    {group.label}
                  </Menu.ItemGroupLabel>
                  {group.entries.map((entry) => (
                    <Menu.Item key={entry.to} value={entry.to} asChild>
                      <EntryLink
                        entry={entry}
                        current={isCurrent(entry)}
                        className="flex min-h-11 items-center rounded-lg px-3 text-parchment data-[highlighted]:bg-gold-500/15 aria-[current=page]:font-medium aria-[current=page]:text-gold-200"
                      />
                    </Menu.Item>
                  ))}
                </Menu.ItemGroup>
              ))}
            </Menu.Content>
          </Menu.Positioner>
        </Menu.Root>
      </div>
      <div className="hidden lg:flex lg:flex-col lg:gap-6">
        {groups.map((group, index) => (
          <div key={group.label}>
            <p id={`${id}-group-${index}`} className={`px-3 ${groupLabelClass}`}>
              {group.label}
            </p>
            <ul aria-labelledby={`${id}-group-${index}`} className="mt-2 flex flex-col gap-0.5">
              {group.entries.map((entry) => (
                <li key={entry.to}>
                  <EntryLink entry={entry} current={isCurrent(entry)} className={sidebarLinkClass} />
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </nav>
  );
}
