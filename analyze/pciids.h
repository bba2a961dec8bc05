/* pciids: the names of pciutils' pci.ids (version 2025.06.21) of the
 * vendors, devices and classes the project meets, both ways: lspci's view
 * prints them, the lspci importer reads them back from output without -n. */
#ifndef RDMA_ANALYZE_PCIIDS_H
#define RDMA_ANALYZE_PCIIDS_H

/* the name of a vendor, a device, a class (base and sub class, 0x0207);
 * NULL when the table does not know it */
const char *pci_vendor_name(unsigned vendor);
const char *pci_device_name(unsigned vendor, unsigned device);
const char *pci_class_name(unsigned cls);

/* the other way: the vendor whose name starts text and is followed by a
 * space (returns the name's length, 0 if none), the device of a vendor
 * named exactly name, the class named exactly name; -1 if unknown */
unsigned pci_vendor_by_name(const char *text, unsigned *vendor);
int pci_device_by_name(unsigned vendor, const char *name, unsigned *device);
int pci_class_by_name(const char *name, unsigned *cls);

#endif
