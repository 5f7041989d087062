import { sideMenuFor, type MenuItem, type UserType } from '@rideway/domain';
import { isBuilt } from '../screens';

type MenuLink = { to: string; label: string };
type MenuGroup = { label: string; links: MenuLink[] };

const link = (item: { key: string; path: string }): MenuLink => ({ to: item.path, label: `menu_${item.key}` });

/**
 * Section 2's side menu for a role, in its order, with the Users and Wallet groups; entries whose
 * screen is not built yet are left out (a group with none left goes too). Logout is the drawer's own.
 */
export function menuFor(usertype: UserType): (MenuLink | MenuGroup)[] {
  return sideMenuFor(usertype).items.flatMap((item: MenuItem): (MenuLink | MenuGroup)[] => {
    if ('path' in item) return item.path === '/' || isBuilt(item.path) ? [link(item)] : [];
    const links = item.children.filter((child) => isBuilt(child.path)).map(link);
    return links.length > 0 ? [{ label: `menu_${item.key}`, links }] : [];
  });
}
