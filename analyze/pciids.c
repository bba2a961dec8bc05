/* pciids: pci.ids names, both ways (pciids.h) */
#include <string.h>

#include "pciids.h"
#include "util.h"

static const struct {
	unsigned vendor;
	const char *name;
} vendors[] = {
	{ 0x15b3, "Mellanox Technologies" },
	{ 0x10de, "NVIDIA Corporation" },
	{ 0x8086, "Intel Corporation" },
	{ 0x1000, "Broadcom / LSI" },
	{ 0x10b5, "PLX Technology, Inc." },
	{ 0x1022, "Advanced Micro Devices, Inc. [AMD]" },
	{ 0x1af4, "Red Hat, Inc." },
};

static const struct {
	unsigned vendor, device;
	const char *name;
} devices[] = {
	{ 0x15b3, 0x1011, "MT27600 [Connect-IB]" },
	{ 0x15b3, 0x1013, "MT27700 Family [ConnectX-4]" },
	{ 0x15b3, 0x1014, "MT27700 Family [ConnectX-4 Virtual Function]" },
	{ 0x15b3, 0x1015, "MT27710 Family [ConnectX-4 Lx]" },
	{ 0x15b3, 0x1016, "MT27710 Family [ConnectX-4 Lx Virtual Function]" },
	{ 0x15b3, 0x1017, "MT27800 Family [ConnectX-5]" },
	{ 0x15b3, 0x1018, "MT27800 Family [ConnectX-5 Virtual Function]" },
	{ 0x15b3, 0x1019, "MT28800 Family [ConnectX-5 Ex]" },
	{ 0x15b3, 0x101a, "MT28800 Family [ConnectX-5 Ex Virtual Function]" },
	{ 0x15b3, 0x101b, "MT28908 Family [ConnectX-6]" },
	{ 0x15b3, 0x101c, "MT28908 Family [ConnectX-6 Virtual Function]" },
	{ 0x15b3, 0x101d, "MT2892 Family [ConnectX-6 Dx]" },
	{ 0x15b3, 0x101e, "ConnectX Family mlx5Gen Virtual Function" },
	{ 0x15b3, 0x101f, "MT2894 Family [ConnectX-6 Lx]" },
	{ 0x15b3, 0x1021, "MT2910 Family [ConnectX-7]" },
	{ 0x15b3, 0x1023, "CX8 Family [ConnectX-8]" },
	{ 0x15b3, 0x1025, "CX9 Family [ConnectX-9]" },
	{ 0x15b3, 0x1027, "CX10 Family [ConnectX-10]" },
	{ 0x15b3, 0xa2d6, "MT42822 BlueField-2 integrated ConnectX-6 Dx network controller" },
	{ 0x15b3, 0xa2dc, "MT43244 BlueField-3 integrated ConnectX-7 network controller" },
};

static const struct {
	unsigned cls;
	const char *name;
} classes[] = {
	{ 0x0200, "Ethernet controller" },
	{ 0x0207, "Infiniband controller" },
	{ 0x0280, "Network controller" },
	{ 0x0300, "VGA compatible controller" },
	{ 0x0302, "3D controller" },
	{ 0x0600, "Host bridge" },
	{ 0x0604, "PCI bridge" },
};

const char *pci_vendor_name(unsigned vendor)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vendors); i++)
		if (vendors[i].vendor == vendor)
			return vendors[i].name;
	return NULL;
}

const char *pci_device_name(unsigned vendor, unsigned device)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(devices); i++)
		if (devices[i].vendor == vendor && devices[i].device == device)
			return devices[i].name;
	return NULL;
}

const char *pci_class_name(unsigned cls)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(classes); i++)
		if (classes[i].cls == cls)
			return classes[i].name;
	return NULL;
}

unsigned pci_vendor_by_name(const char *text, unsigned *vendor)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vendors); i++) {
		size_t n = strlen(vendors[i].name);

		if (!strncmp(text, vendors[i].name, n) && text[n] == ' ') {
			*vendor = vendors[i].vendor;
			return (unsigned)n;
		}
	}
	return 0;
}

int pci_device_by_name(unsigned vendor, const char *name, unsigned *device)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(devices); i++)
		if (devices[i].vendor == vendor && !strcmp(name, devices[i].name)) {
			*device = devices[i].device;
			return 0;
		}
	return -1;
}

int pci_class_by_name(const char *name, unsigned *cls)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(classes); i++)
		if (!strcmp(name, classes[i].name)) {
			*cls = classes[i].cls;
			return 0;
		}
	return -1;
}
